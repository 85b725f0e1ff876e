/// A byte buffer that the writer fills through raw pointers, without per-byte uniqueness and
/// bounds checks. It grows by adding chunks (never moving what is written), and `copy(into:)`
/// gathers them into one array. Non-copyable, so exactly one owner frees its memory.
struct JSONOutputBuffer: ~Copyable {
    private static let largestChunk = 4 << 20

    /// The chunk being filled.
    private var chunk: UnsafeMutablePointer<UInt8>
    private var chunkCapacity: Int
    private var chunkCount = 0
    /// Earlier chunks, in order, with how many bytes each holds.
    private var filledChunks: [(start: UnsafeMutablePointer<UInt8>, count: Int)] = []
    private var filledCount = 0

    init(capacity: Int) {
        chunkCapacity = max(capacity, 64)
        chunk = .allocate(capacity: chunkCapacity)
    }

    deinit {
        for filled in filledChunks { filled.start.deallocate() }
        chunk.deallocate()
    }

    /// Bytes written so far.
    var count: Int { filledCount + chunkCount }

    /// Makes room for at least `extra` more contiguous bytes.
    @inline(__always) mutating func reserve(_ extra: Int) {
        if chunkCapacity - chunkCount < extra { startChunk(withRoomFor: extra) }
    }

    private mutating func startChunk(withRoomFor extra: Int) {
        if chunkCount > 0 {
            filledChunks.append((chunk, chunkCount))
            filledCount += chunkCount
        } else {
            chunk.deallocate()
        }
        chunkCapacity = max(extra, min(chunkCapacity * 2, Self.largestChunk))
        chunk = .allocate(capacity: chunkCapacity)
        chunkCount = 0
    }

    /// Appends one byte; the caller has reserved room.
    @inline(__always) mutating func appendReserved(_ byte: UInt8) {
        chunk[chunkCount] = byte
        chunkCount += 1
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        appendReserved(byte)
    }

    @inline(__always) mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        (chunk + chunkCount).initialize(from: source, count: length)
        chunkCount += length
    }

    @inline(__always) mutating func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends `count` copies of `byte` (indentation).
    mutating func append(repeating byte: UInt8, count length: Int) {
        guard length > 0 else { return }
        reserve(length)
        (chunk + chunkCount).initialize(repeating: byte, count: length)
        chunkCount += length
    }

    /// Copies the bytes onto the end of `bytes`, growing it at most once.
    func copy(into bytes: inout [UInt8]) {
        let needed = bytes.count + count
        // Grow geometrically, so that many small writes into one array stay linear.
        if bytes.capacity < needed { bytes.reserveCapacity(max(needed, 2 * bytes.capacity)) }
        for filled in filledChunks {
            bytes.append(contentsOf: UnsafeBufferPointer(start: filled.start, count: filled.count))
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: chunk, count: chunkCount))
    }
}
