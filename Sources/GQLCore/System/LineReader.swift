#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file descriptor line by line, without the line breaks; the last line may lack one.
public struct LineReader {
    /// The file descriptor it reads.
    public let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    /// A reader of `descriptor` from its current position.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line, or nil at the end of the input.
    public mutating func next() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return line
            }
            if ended {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return line
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { ended = true } else { buffer.append(contentsOf: chunk[..<count]) }
        }
    }
}
