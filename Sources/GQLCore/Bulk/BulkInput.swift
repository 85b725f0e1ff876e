/// Where a bulk input's bytes come from, a chunk at a time, so that memory stays flat however long it is.
public protocol ByteChunkSource {
    /// The next bytes, or an empty array at the end.
    mutating func next() throws(FileReadError) -> [UInt8]
}

/// A file descriptor read in 64 KiB chunks.
public struct DescriptorChunks: ByteChunkSource {
    public let descriptor: Int32
    /// The name errors use (a path, or `<stdin>`).
    public let name: String

    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    public mutating func next() throws(FileReadError) -> [UInt8] {
        try FileReader.chunk(descriptor: descriptor, name: name)
    }
}

/// Bytes already in memory, handed out once.
public struct BufferedChunks: ByteChunkSource {
    private var bytes: [UInt8]?

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func next() throws(FileReadError) -> [UInt8] {
        defer { bytes = nil }
        return bytes ?? []
    }
}

/// One item of a bulk input, as read: its bytes and where it starts.
public struct BulkInputItem: Sendable {
    /// 0-based position in the input.
    public let index: Int
    /// The 1-based line its first byte is on.
    public let line: Int
    /// Its text, as given (an NDJSON line without its line break, or an array element).
    public let bytes: [UInt8]

    public init(index: Int, line: Int, bytes: [UInt8]) {
        self.index = index
        self.line = line
        self.bytes = bytes
    }

    /// The item's JSON value; an error's line is the input's, not the item's.
    public func parse() throws(JSONParseError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw JSONParseError(message: error.message, line: line + error.line - 1, column: error.column, offset: error.offset)
        }
    }

    /// The item as one line for a rejects file: as given when it is one line, else compact JSON.
    public var rejectLine: [UInt8] {
        if !bytes.contains(UInt8(ascii: "\n")) { return bytes + [UInt8(ascii: "\n")] }
        guard let value = try? JSONValue.parse(bytes) else {
            return bytes.map { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") ? UInt8(ascii: " ") : $0 } + [UInt8(ascii: "\n")]
        }
        return Array(value.serialized(.compact).utf8) + [UInt8(ascii: "\n")]
    }
}

/// Why a bulk input cannot be read on: the file, or a JSON array whose structure is broken.
public enum BulkInputError: Error, Sendable, Equatable, CustomStringConvertible {
    case file(FileReadError)
    /// The array's punctuation is wrong at line:column (an element's own JSON is the element's problem).
    case syntax(line: Int, column: Int, message: String)
    /// One item is larger than ``BulkInputReader/maximumItemSize``.
    case itemTooLarge(line: Int, limit: Int)

    public var description: String {
        switch self {
        case .file(let error): return error.description
        case .syntax(let line, let column, let message): return "invalid JSON at \(line):\(column): \(message)"
        case .itemTooLarge(let line, let limit):
            return "the item on line \(line) is larger than \(limit / (1 << 20)) MiB"
        }
    }
}

/// Splits a bulk input into items as it streams: one JSON object, NDJSON (one value per line, or any
/// whitespace-separated sequence of JSON values, such as `jq`'s pretty output), or a JSON array whose
/// elements are the items. Only the item being read is held in memory.
///
/// ```swift
/// var reader = BulkInputReader(source: DescriptorChunks(descriptor: fd, name: "posts.ndjson"))
/// while let item = try reader.next() { let value = try item.parse() … }
/// ```
///
/// Item boundaries are found by a byte scan that tracks strings and nesting; the item's own JSON is parsed
/// by ``BulkInputItem/parse()``, so a bad NDJSON line is that item's error and the next line is still read.
public struct BulkInputReader<Source: ByteChunkSource> {
    /// The largest single item: far above any record, small enough that a runaway input is refused.
    public static var maximumItemSize: Int { 64 << 20 }

    /// The input's shape, known once its first non-blank byte is read.
    public enum Layout: Sendable, Equatable {
        /// Values one after another (NDJSON, or a single object).
        case sequence
        /// `[ … ]`: each element is an item.
        case array
    }

    private var source: Source
    private var buffer: [UInt8] = []
    private var position = 0
    private var ended = false
    private var line = 1
    private var column = 1
    private var count = 0
    /// The shape, once known.
    public private(set) var layout: Layout?
    /// In an array: false until the closing `]`.
    private var arrayClosed = false
    private var expectingElement = true

    public init(source: Source) {
        self.source = source
    }

    /// The next item, or nil at the end of the input.
    public mutating func next() throws(BulkInputError) -> BulkInputItem? {
        try skipBlank()
        guard let first = try peek() else {
            if layout == .array && !arrayClosed { throw syntax("unexpected end of input; expected ']'") }
            return nil
        }
        if layout == nil {
            if first == UInt8(ascii: "[") {
                layout = .array
                advance()
                try skipBlank()
                if try peek() == UInt8(ascii: "]") {
                    advance()
                    arrayClosed = true
                    return try finishArray()
                }
            } else {
                layout = .sequence
            }
        }
        if layout == .array { return try nextElement() }
        return try scanItem()
    }

    private mutating func nextElement() throws(BulkInputError) -> BulkInputItem? {
        if arrayClosed { return try finishArray() }
        if !expectingElement {
            try skipBlank()
            switch try peek() {
            case UInt8(ascii: ",")?:
                advance()
                try skipBlank()
            case UInt8(ascii: "]")?:
                advance()
                arrayClosed = true
                return try finishArray()
            case nil: throw syntax("unexpected end of input; expected ',' or ']'")
            default: throw syntax("expected ',' or ']' after an array element")
            }
        }
        guard let next = try peek() else { throw syntax("unexpected end of input; expected a value") }
        if next == UInt8(ascii: "]") || next == UInt8(ascii: ",") { throw syntax("expected a value") }
        expectingElement = false
        return try scanItem()
    }

    /// After `]`: only blanks may follow.
    private mutating func finishArray() throws(BulkInputError) -> BulkInputItem? {
        try skipBlank()
        if try peek() != nil { throw syntax("unexpected text after the array's ']'") }
        return nil
    }

    /// Reads one value's bytes: to the matching close for objects and arrays, to the closing quote for
    /// strings, else to the next delimiter. An unterminated value runs to the end of the input.
    private mutating func scanItem() throws(BulkInputError) -> BulkInputItem? {
        let startLine = line
        var bytes: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        let inArray = layout == .array
        while let byte = try peek() {
            if !inString && depth == 0 && !bytes.isEmpty {
                // A scalar ends at a delimiter; a container or string has already ended below.
                if Self.isBlank(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")
                    || (!inArray && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")))
                { break }
            }
            advance()
            bytes.append(byte)
            if bytes.count > Self.maximumItemSize { throw .itemTooLarge(line: startLine, limit: Self.maximumItemSize) }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { break }
                } else if byte == UInt8(ascii: "\n") && !inArray {
                    break  // an NDJSON line with an unterminated string ends with its line
                }
                continue
            }
            if byte == UInt8(ascii: "\n") && !inArray && depth > 0, try peek() == UInt8(ascii: "{") {
                // A `{` at the start of a line begins the next record: this line was cut short. (A pretty
                // printed value's inner lines are indented.)
                break
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { depth = 0 }
            default: break
            }
            if depth == 0 && (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) { break }
        }
        if inArray, depth > 0 || inString, try peek() == nil {
            // An element still open at the end: the array's structure is broken, not just this element.
            throw syntax("unexpected end of input; expected ']'")
        }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        let item = BulkInputItem(index: count, line: startLine, bytes: bytes)
        count += 1
        return item
    }

    // MARK: Bytes

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private mutating func skipBlank() throws(BulkInputError) {
        while let byte = try peek() {
            if Self.isBlank(byte) {
                advance()
            } else if count == 0 && line == 1 && column == 1 && byte == 0xEF {
                // A UTF-8 byte order mark before the first item.
                for _ in 0..<3 { advance() }
                column = 1
            } else {
                return
            }
        }
    }

    private mutating func peek() throws(BulkInputError) -> UInt8? {
        if position < buffer.count { return buffer[position] }
        guard !ended else { return nil }
        buffer.removeAll(keepingCapacity: true)
        position = 0
        while buffer.isEmpty {
            do {
                let chunk = try source.next()
                if chunk.isEmpty {
                    ended = true
                    return nil
                }
                buffer = chunk
            } catch {
                throw .file(error)
            }
        }
        return buffer[position]
    }

    private mutating func advance() {
        if buffer[position] == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if buffer[position] & 0xC0 != 0x80 {
            column += 1
        }
        position += 1
    }

    private func syntax(_ message: String) -> BulkInputError {
        .syntax(line: line, column: column, message: message)
    }
}
