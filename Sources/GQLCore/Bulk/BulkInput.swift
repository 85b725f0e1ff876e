#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// The largest single item (64 MiB): far above any record, small enough that a runaway input (a binary file, a
    /// line that never ends) is read past instead of held.
    public static let maximumSize = 64 << 20

    /// 0-based position in the input.
    public let index: Int
    /// The 1-based line its first byte is on.
    public let line: Int
    /// The 1-based column (in characters) its first byte is at.
    public let column: Int
    /// Its text, as given (an NDJSON line without its line break, a pretty value's lines, or an array element);
    /// empty when ``isOversized``.
    public let bytes: [UInt8]
    /// Larger than ``maximumSize``: read past, not kept.
    public let isOversized: Bool
    /// The value, when the reader already parsed it (one of several values on a line).
    private let parsed: JSONValue?

    public init(index: Int, line: Int, column: Int = 1, bytes: [UInt8], isOversized: Bool = false) {
        self.init(index: index, line: line, column: column, bytes: bytes, isOversized: isOversized, parsed: nil)
    }

    init(index: Int, line: Int, column: Int, bytes: [UInt8], isOversized: Bool, parsed: JSONValue?) {
        self.index = index
        self.line = line
        self.column = column
        self.bytes = bytes
        self.isOversized = isOversized
        self.parsed = parsed
    }

    /// The item's JSON value; an error's line and column are the input's, not the item's.
    public func parse() throws(JSONParseError) -> JSONValue {
        if let parsed { return parsed }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            let column = error.line == 1 ? error.column + self.column - 1 : error.column
            throw JSONParseError(message: error.message, line: line + error.line - 1, column: column, offset: error.offset)
        }
    }

    /// The item as one line for a rejects file: as given when it is one line, else compact JSON; nothing for an
    /// oversized item.
    public var rejectLine: [UInt8] {
        if isOversized { return [] }
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

    public var description: String {
        switch self {
        case .file(let error): return error.description
        case .syntax(let line, let column, let message): return "invalid JSON at \(line):\(column): \(message)"
        }
    }
}

/// Splits a bulk input into items as it streams. Only the item being read is held in memory.
///
/// - A JSON array (`[` first): each element is an item; broken punctuation between elements stops the input.
/// - Anything else is a sequence of records, told apart by lines. When the first record ends on its first line,
///   the input is line-oriented (NDJSON): each line is one record, whole. A line holding several complete values
///   (`{…} {…}`, concatenated JSON) gives one item per value, but a line that is not entirely JSON (`not json`,
///   `{…} trailing`, binary garbage) is one item, whose parse error has the line's true line:column, so nothing
///   of it is applied and it goes to a rejects file unchanged.
/// - When the first record spans lines, values may be pretty-printed (`jq`'s output): a value goes on over the
///   lines that start with a space, a tab, a closing bracket or a quote, until its brackets balance; a line that
///   starts otherwise (a `{` at column 1) begins the next record, and the value cut short is one failed item.
///
/// An item larger than ``BulkInputItem/maximumSize`` (by default) is read past without being kept: one oversized item, and the input
/// goes on after it.
///
/// ```swift
/// var reader = BulkInputReader(source: DescriptorChunks(descriptor: fd, name: "posts.ndjson"))
/// while let item = try reader.next() { let value = try item.parse() … }
/// ```
public struct BulkInputReader<Source: ByteChunkSource> {
    /// The input's shape, known once its first non-blank byte is read.
    public enum Layout: Sendable, Equatable {
        /// Values one after another (NDJSON, pretty values, or a single object).
        case sequence
        /// `[ … ]`: each element is an item.
        case array
    }

    /// For a sequence: whether values may span lines, known from the first record.
    private enum Lines {
        case undecided, oneRecordPerLine, valuesSpanLines
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
    private var lines = Lines.undecided
    /// Items of a line with several values, handed out one at a time.
    private var split: [BulkInputItem] = []
    /// In an array: false until the closing `]`.
    private var arrayClosed = false
    private var expectingElement = true

    /// Items larger than this many bytes are read past (``BulkInputItem/isOversized``).
    private let maximumItemSize: Int

    public init(source: Source, maximumItemSize: Int = BulkInputItem.maximumSize) {
        self.source = source
        self.maximumItemSize = maximumItemSize
    }

    /// The next item, or nil at the end of the input.
    public mutating func next() throws(BulkInputError) -> BulkInputItem? {
        if !split.isEmpty { return split.removeFirst() }
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
        return try nextRecord()
    }

    // MARK: Sequences

    /// Reads one record's lines (see the type's description), then makes its item or items.
    private mutating func nextRecord() throws(BulkInputError) -> BulkInputItem? {
        if lines == .oneRecordPerLine { return try nextLine() }
        let (startLine, startColumn) = (line, column)
        var scan = StructureScan()
        var bytes: [UInt8] = []
        var oversized = false
        var spanned = false
        /// Where the first container or string closed: when that is the end, the record is one value.
        var firstClose: Int?
        while let byte = try peek() {
            advance()
            if byte == UInt8(ascii: "\n") {
                scan.endLine()
                guard lines != .oneRecordPerLine, scan.depth > 0, try continuesValue() else { break }
                spanned = true
            } else {
                scan.take(byte)
            }
            if oversized { continue }
            bytes.append(byte)
            if scan.closedValue && firstClose == nil { firstClose = bytes.count }
            if bytes.count > maximumItemSize {
                oversized = true
                bytes = []
            }
        }
        if lines == .undecided { lines = spanned ? .valuesSpanLines : .oneRecordPerLine }
        if oversized { return item(line: startLine, column: startColumn, bytes: [], oversized: true) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if firstClose == bytes.count { return item(line: startLine, column: startColumn, bytes: bytes) }
        return items(of: bytes, line: startLine, column: startColumn)
    }

    /// A record of line-oriented input: its line, found a buffer at a time with memchr (one over ``maximumItemSize`` is
    /// read past unscanned; a kept one is scanned only to its first value's end); then its item or items.
    private mutating func nextLine() throws(BulkInputError) -> BulkInputItem? {
        let (startLine, startColumn) = (line, column)
        var bytes: [UInt8] = []
        var oversized = false
        while try peek() != nil {
            let lineBreak = buffer.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { base in
                    memchr(base + position, Int32(UInt8(ascii: "\n")), buffer.count - position)
                        .map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base }
                }
            }
            let end = lineBreak ?? buffer.count
            if !oversized {
                oversized = bytes.count + (end - position) > maximumItemSize
                if oversized { bytes = [] } else { bytes.append(contentsOf: buffer[position..<end]) }
            }
            // Only a line break moves the position that later errors name: the line's own are found by its parse.
            position = end
            if lineBreak != nil {
                advance()
                break
            }
        }
        if oversized { return item(line: startLine, column: startColumn, bytes: [], oversized: true) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        // A line whose first value closes at its end is that one value.
        var scan = StructureScan()
        var firstClose: Int?
        for (offset, byte) in bytes.enumerated() {
            scan.take(byte)
            if scan.closedValue {
                firstClose = offset + 1
                break
            }
        }
        if firstClose == bytes.count { return item(line: startLine, column: startColumn, bytes: bytes) }
        return items(of: bytes, line: startLine, column: startColumn)
    }

    /// After a line break inside a value: whether the next line goes on with it (it starts with a space, a tab or a
    /// closing bracket, as a pretty printer's inner and closing lines do, or with a member name's quote, as an
    /// object written by hand without indentation does).
    private mutating func continuesValue() throws(BulkInputError) -> Bool {
        switch try peek() {
        case UInt8(ascii: " ")?, UInt8(ascii: "\t")?, UInt8(ascii: "}")?, UInt8(ascii: "]")?, UInt8(ascii: "\r")?,
            UInt8(ascii: "\"")?:
            return true
        default: return false
        }
    }

    /// One item for a record's bytes, or one per value when they hold several values that all parse.
    private mutating func items(of bytes: [UInt8], line: Int, column: Int) -> BulkInputItem {
        let pieces = StructureScan.values(in: bytes)
        if pieces.count > 1 {
            var parsed: [(range: Range<Int>, value: JSONValue)] = []
            for piece in pieces {
                guard let value = try? JSONValue.parse(Array(bytes[piece])) else { break }
                parsed.append((piece, value))
            }
            if parsed.count == pieces.count {
                var made = parsed.map { piece -> BulkInputItem in
                    let (pieceLine, pieceColumn) = Self.position(of: piece.range.lowerBound, in: bytes, line: line, column: column)
                    return item(line: pieceLine, column: pieceColumn, bytes: Array(bytes[piece.range]), parsed: piece.value)
                }
                let first = made.removeFirst()
                split = made
                return first
            }
        }
        return item(line: line, column: column, bytes: bytes)
    }

    private mutating func item(
        line: Int, column: Int, bytes: [UInt8], oversized: Bool = false, parsed: JSONValue? = nil
    ) -> BulkInputItem {
        defer { count += 1 }
        return BulkInputItem(index: count, line: line, column: column, bytes: bytes, isOversized: oversized, parsed: parsed)
    }

    /// The line and column of `offset` in `bytes`, which start at `line`:`column`.
    private static func position(of offset: Int, in bytes: [UInt8], line: Int, column: Int) -> (Int, Int) {
        var (line, column) = (line, column)
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    // MARK: Arrays

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
        return try scanElement()
    }

    /// After `]`: only blanks may follow.
    private mutating func finishArray() throws(BulkInputError) -> BulkInputItem? {
        try skipBlank()
        if try peek() != nil { throw syntax("unexpected text after the array's ']'") }
        return nil
    }

    /// Reads one element's bytes: to the matching close for objects and arrays, to the closing quote for
    /// strings, else to the next delimiter. An element still open at the end breaks the array.
    private mutating func scanElement() throws(BulkInputError) -> BulkInputItem? {
        let (startLine, startColumn) = (line, column)
        var scan = StructureScan()
        var bytes: [UInt8] = []
        var oversized = false
        while let byte = try peek() {
            if scan.depth == 0 && !scan.inString && scan.started {
                // A scalar ends at a delimiter; a container or string has already ended below.
                if Self.isBlank(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") { break }
            }
            advance()
            scan.take(byte)
            if !oversized {
                bytes.append(byte)
                if bytes.count > maximumItemSize {
                    oversized = true
                    bytes = []
                }
            }
            if scan.closedValue { break }
        }
        if scan.depth > 0 || scan.inString, try peek() == nil {
            throw syntax("unexpected end of input; expected ']'")
        }
        return item(line: startLine, column: startColumn, bytes: bytes, oversized: oversized)
    }

    // MARK: Bytes

    private static func isBlank(_ byte: UInt8) -> Bool { StructureScan.isBlank(byte) }

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
