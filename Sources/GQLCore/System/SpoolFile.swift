#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes held on disk until they are read back once: an unlinked temporary file in `$TMPDIR` (else `/tmp`), so that
/// output that must wait (a diff's differences, printed after its summary) keeps memory flat. The file disappears
/// when the spool is released, even if the process is killed.
public final class SpoolFile {
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private static let flushSize = 64 * 1024
    /// Bytes appended so far.
    public private(set) var count = 0

    /// Creates the file in `directory` and unlinks it at once.
    public init(directory: String) throws(SpoolError) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast()) + Array("gqlc-spool-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw SpoolError("cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))") }
        unlink(template)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The directory temporary files go in: `$TMPDIR` when set, else `/tmp`.
    public static func directory(environment: [String: String]) -> String {
        if let directory = environment["TMPDIR"], !directory.isEmpty { return directory }
        return "/tmp"
    }

    /// Appends `text`.
    public func append(_ text: String) throws(SpoolError) {
        buffer.append(contentsOf: text.utf8)
        count += text.utf8.count
        if buffer.count >= Self.flushSize { try flush() }
    }

    private func flush() throws(SpoolError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SpoolError("cannot write a temporary file: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads everything appended so far back from the start, in chunks; `body` returns false to stop.
    public func replay(_ body: ([UInt8]) -> Bool) throws(SpoolError) {
        try flush()
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw SpoolError("cannot read a temporary file back: \(String(cString: strerror(errno)))")
        }
        var chunk = [UInt8](repeating: 0, count: Self.flushSize)
        while true {
            let read = chunk.withUnsafeMutableBytes { readDescriptor(descriptor, $0.baseAddress, $0.count) }
            if read < 0 {
                if errno == EINTR { continue }
                throw SpoolError("cannot read a temporary file back: \(String(cString: strerror(errno)))")
            }
            if read == 0 || !body(Array(chunk[..<read])) { return }
        }
    }
}

private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// A temporary file that could not be written or read.
public struct SpoolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
