#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bulk input opened for streaming, with its first items read ahead, so that one JSON object that is not in an
/// array can still be taken as a single record (``isSingle``) while a longer input streams with flat memory.
public struct BulkInputStream {
    private var reader: BulkInputReader<Chunks>
    /// Items read ahead, handed out first.
    public private(set) var ahead: [BulkInputItem] = []
    /// What messages call the input (a path, or `<stdin>`).
    public let name: String
    /// Whether the rest of the input can be read after an interruption without waiting on a pipe or terminal.
    public let isRegularFile: Bool
    /// An error met while reading ahead, thrown once the items before it are handed out.
    private var pendingError: BulkInputError?

    /// Opens the file at `path` (not yet read).
    public init(path: String) throws(FileReadError) {
        let descriptor = try FileReader.openForReading(path: path)
        var status = stat()
        isRegularFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        reader = BulkInputReader(source: .descriptor(DescriptorChunks(descriptor: descriptor, name: path)))
        name = path
    }

    /// Reads the open descriptor `descriptor` (standard input), named `name`.
    public init(descriptor: Int32, name: String) {
        reader = BulkInputReader(source: .descriptor(DescriptorChunks(descriptor: descriptor, name: name)))
        self.name = name
        isRegularFile = false
    }

    /// Reads `bytes`, as read already, named `name`.
    public init(bytes: [UInt8], name: String) {
        reader = BulkInputReader(source: .buffered(BufferedChunks(bytes)))
        self.name = name
        isRegularFile = false
    }

    /// Reads up to `count` items ahead; throws when not even the first can be read (an error after it is thrown
    /// by ``next()`` in its turn).
    public mutating func readAhead(_ count: Int = 2) throws(BulkInputError) {
        do {
            while ahead.count < count, let item = try reader.next() { ahead.append(item) }
        } catch {
            if ahead.isEmpty { throw error }
            pendingError = error
        }
    }

    /// Nothing at all (not even `[]`).
    public var isEmpty: Bool { ahead.isEmpty && reader.layout == nil && pendingError == nil }

    /// One JSON value that is not in an array: the single-record form.
    public var isSingle: Bool { ahead.count == 1 && reader.layout == .sequence && pendingError == nil }

    /// The next item (those read ahead first), nil at the end.
    public mutating func next() throws(BulkInputError) -> BulkInputItem? {
        if !ahead.isEmpty { return ahead.removeFirst() }
        if let error = pendingError {
            pendingError = nil
            throw error
        }
        return try reader.next()
    }

    /// A bulk input's bytes: a file descriptor, or bytes read already.
    enum Chunks: ByteChunkSource {
        case descriptor(DescriptorChunks)
        case buffered(BufferedChunks)

        mutating func next() throws(FileReadError) -> [UInt8] {
            switch self {
            case .descriptor(var chunks):
                defer { self = .descriptor(chunks) }
                return try chunks.next()
            case .buffered(var chunks):
                defer { self = .buffered(chunks) }
                return try chunks.next()
            }
        }
    }
}

/// Why a bulk input cannot be used: it cannot be opened, not even its first item can be read, or (where a single record
/// is wanted) it holds none, or an item that cannot be taken.
public enum BulkInputOpenError: Error, Sendable {
    /// The file cannot be opened, or standard input read.
    case unreadable(FileReadError)
    /// Not even the first item of `name` can be read.
    case broken(name: String, BulkInputError)
    /// A single record was wanted, and `name` holds nothing.
    case empty(name: String)
    /// A single record was wanted, and the one item of `name` cannot be taken (oversized, or not JSON).
    case unusable(name: String, BulkItemProblem)

    /// The reason, as one line, with an item's problem said by `phrase`.
    public func message(phrase: (BulkItemProblem) -> String = \.description) -> String {
        switch self {
        case .unreadable(let error): error.description
        case .broken(let name, let error): "\(name): \(error.description)"
        case .empty(let name): "\(name): the input is empty; expected a JSON object"
        case .unusable(let name, let problem): "\(name): \(phrase(problem))"
        }
    }
}

extension BulkInputStream {
    /// Opens `source` and reads up to two items ahead, so that one object can still be taken as a single record: a
    /// file, or standard input, streamed when `input` is the process's own and read whole from any other reader.
    public static func open(_ source: InputSource, input: any InputReader) throws(BulkInputOpenError) -> BulkInputStream {
        var stream: BulkInputStream
        do throws(FileReadError) {
            switch source {
            case .file(let path): stream = try BulkInputStream(path: path)
            case .standardInput where input is StandardInput: stream = BulkInputStream(descriptor: STDIN_FILENO, name: source.name)
            case .standardInput: stream = BulkInputStream(bytes: try input.readAll(), name: source.name)
            }
        } catch {
            throw .unreadable(error)
        }
        do throws(BulkInputError) {
            try stream.readAhead()
        } catch {
            throw .broken(name: source.name, error)
        }
        return stream
    }

    /// The single record of a one-object input, parsed.
    public func single() throws(BulkInputOpenError) -> JSONValue {
        guard let item = ahead.first else { throw .empty(name: name) }
        if item.isOversized { throw .unusable(name: name, .oversized) }
        do {
            return try item.parse()
        } catch {
            throw .unusable(name: name, .invalidJSON(error))
        }
    }
}
