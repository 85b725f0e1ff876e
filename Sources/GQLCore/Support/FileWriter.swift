#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files atomically: a temporary file beside the target, then `rename`, so that a reader never sees
/// half a file and an interrupted write leaves the old one.
public enum FileWriter {
    /// Why a file could not be written: `PATH: reason`.
    public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file that could not be written.
        public var path: String
        /// Why, as the system says it.
        public var reason: String
        /// `PATH: reason`.
        public var description: String { "\(path): \(reason)" }
    }

    /// Writes `bytes` to `path`, creating missing parent directories (mode 0700) when `createDirectories` is set;
    /// a new file gets `mode` (0600 for secrets).
    public static func write(
        _ bytes: [UInt8], to path: String, createDirectories: Bool = false, mode: mode_t = 0o644
    ) throws(WriteError) {
        if createDirectories, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]))
        }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: systemReason()) }
        if let code = append(bytes, to: descriptor) {
            close(descriptor)
            unlink(temporary)
            throw WriteError(path: path, reason: String(cString: strerror(code)))
        }
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let reason = systemReason()
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
    }

    /// `mkdir -p`: each missing directory of `path` (mode `mode`); the error names the one that could not be made.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(WriteError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0, errno != EEXIST { throw WriteError(path: prefix, reason: systemReason()) }
        }
    }

    /// Writes all of `bytes` to `descriptor` (again after a short or interrupted write); nil when done, else the
    /// `errno` of the failed write.
    public static func append(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}
