import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read. Every case reads as `PATH: what went wrong`, the same for every file gqlc reads.
public enum FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing at the path (or a directory on the way is missing).
    case notFound(path: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// The file exists but this user may not read it.
    case permissionDenied(path: String)
    /// More bytes than ``FileReader/maximumSize`` (`/dev/zero`, a runaway pipe).
    case tooLarge(path: String, limit: Int)
    /// Any other failure of `open` or `read`, with the system's reason.
    case io(path: String, reason: String)
    /// The bytes are not UTF-8 where text is required; `offset` is the first bad byte's.
    case invalidUTF8(path: String, offset: Int)
    /// Ctrl-C or SIGTERM while waiting for the file (a FIFO without a writer, a terminal, a pipe that is quiet).
    case interrupted(path: String)

    /// The name the file was given by (a path, or `<stdin>`).
    public var path: String {
        switch self {
        case .notFound(let path), .isDirectory(let path), .permissionDenied(let path), .tooLarge(let path, _),
            .io(let path, _), .invalidUTF8(let path, _), .interrupted(let path):
            return path
        }
    }

    /// What went wrong, without the path: `no such file`.
    public var reason: String {
        switch self {
        case .notFound: return "no such file"
        case .isDirectory: return "is a directory, not a file"
        case .permissionDenied: return "permission denied"
        case .tooLarge(_, let limit): return "larger than \(limit / (1 << 20)) MiB; this is not a file gqlc can use"
        case .io(_, let reason): return "cannot be read: \(reason)"
        case .invalidUTF8(_, let offset): return "not valid UTF-8 text (first bad byte at offset \(offset))"
        case .interrupted: return "interrupted while waiting to read it"
        }
    }

    /// `PATH: reason`.
    public var description: String { "\(path): \(reason)".escapingLineBreaks }
}

/// Reads whole files once, with plain `open`/`read`: regular files, and also pipes, FIFOs, process
/// substitution (`/dev/fd/N`) and character devices (`/dev/null`, `/dev/stdin`), whose size is unknown
/// until they end.
///
/// ```swift
/// let bytes = try FileReader.bytes(atPath: "vars.json")
/// let text = try FileReader.text(atPath: "query.graphql")
/// ```
public enum FileReader {
    /// The largest file read: 256 MiB, far above any schema, document or JSON value gqlc takes, so that
    /// `/dev/zero` or an endless pipe ends with an error instead of filling memory.
    public static let maximumSize = 256 << 20

    /// Set once at start-up to the process's Ctrl-C flag: every read then waits on it as well as on the file, and
    /// ends with ``FileReadError/interrupted(path:)`` once it is set.
    public static func interrupt(on flag: CancellationFlag) {
        interruption.withLock { $0 = flag }
    }

    private static let interruption = Mutex<CancellationFlag?>(nil)

    /// The bytes of the file at `path`.
    public static func bytes(atPath path: String, limit: Int = maximumSize) throws(FileReadError) -> [UInt8] {
        let descriptor = try openWithoutWaiting(path)
        defer { close(descriptor) }
        return try bytes(descriptor: descriptor, name: path, limit: limit)
    }

    /// Opens the file at `path` for reading, for callers that read it in chunks (``DescriptorChunks``).
    public static func openForReading(path: String) throws(FileReadError) -> Int32 {
        let descriptor = try openWithoutWaiting(path)
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .isDirectory(path: path)
        }
        return descriptor
    }

    /// Reads up to `count` bytes from `descriptor`; empty at its end. `name` is for errors.
    public static func chunk(descriptor: Int32, name: String, count: Int = 64 * 1024) throws(FileReadError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        while true {
            try waitUntilReadable(descriptor, name: name)
            let got = chunk.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EISDIR { throw .isDirectory(path: name) }
                throw error(errno, path: name)
            }
            chunk.removeSubrange(got...)
            return chunk
        }
    }

    /// The UTF-8 text of the file at `path`; invalid UTF-8 is an error, never silently replaced.
    public static func text(atPath path: String, limit: Int = maximumSize) throws(FileReadError) -> String {
        try text(try bytes(atPath: path, limit: limit), name: path)
    }

    /// Everything left on an open descriptor (standard input, say) up to its end; `name` is for errors.
    /// The descriptor is not closed.
    public static func bytes(descriptor: Int32, name: String, limit: Int = maximumSize) throws(FileReadError) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw error(errno, path: name) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: name) }
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        // A regular file's size is a good first guess; pipes and devices say 0 and grow as they go.
        var result: [UInt8] = []
        let expected = isRegular ? Int(status.st_size) : 0
        if expected > limit { throw .tooLarge(path: name, limit: limit) }
        result.reserveCapacity(expected + 1)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if !isRegular { try waitUntilReadable(descriptor, name: name) }
            let count = chunk.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw error(errno, path: name)
            }
            if count == 0 { return result }
            if result.count + count > limit { throw .tooLarge(path: name, limit: limit) }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// `bytes` as UTF-8 text, without a leading byte-order mark; `name` is for errors.
    public static func text(_ bytes: [UInt8], name: String) throws(FileReadError) -> String {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var iterator = bytes[start...].makeIterator()
        var decoder = UTF8()
        var offset = start
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: break loop
            case .error: throw .invalidUTF8(path: name, offset: offset)
            }
        }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// Opens `path` for reading without blocking: a FIFO opens at once even before it has a writer (the first read
    /// then waits for one, and ends on Ctrl-C). The descriptor is blocking again afterwards.
    private static func openWithoutWaiting(_ path: String) throws(FileReadError) -> Int32 {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw error(errno, path: path) }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }

    /// Waits until `descriptor` has something to read, or throws when the process is interrupted first. Without a
    /// flag it still waits: a FIFO opened before its writer reads as ended until the writer comes.
    private static func waitUntilReadable(_ descriptor: Int32, name: String) throws(FileReadError) {
        if !CancellationFlag.waitUntilReadable(descriptor, or: interruption.withLock { $0 }) { throw .interrupted(path: name) }
    }

    private static func error(_ number: Int32, path: String) -> FileReadError {
        switch number {
        case ENOENT, ENOTDIR: return .notFound(path: path)
        case EISDIR: return .isDirectory(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        default:
            guard let message = strerror(number) else { return .io(path: path, reason: "error \(number)") }
            return .io(path: path, reason: String(cString: message))
        }
    }
}
