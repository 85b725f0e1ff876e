/// Where a writer's bytes go: standard output, a file, a buffer. The core never writes to a stream itself; a program
/// (or the gqlc executable, whose standard output ends the process on a failed write) supplies the sink.
public protocol OutputSink: Sendable {
    /// Writes text as UTF-8.
    func write(_ text: String)
    /// Writes UTF-8 bytes; returns false when the write failed (a closed pipe, a full disk).
    @discardableResult func write(bytes: [UInt8]) -> Bool
}

extension OutputSink {
    /// Writes the bytes as text, for a sink that only takes text; it cannot fail.
    @discardableResult public func write(bytes: [UInt8]) -> Bool {
        write(String(decoding: bytes, as: UTF8.self))
        return true
    }
}
