/// Turns a stream of records, page by page, into the bytes of one output format: one type per format, chosen in
/// one place (``OutputFormat/writer(style:formatter:)``). A writer returns bytes and never writes them itself,
/// so ``ResultPrinter/ListStream`` owns the one place where output can fail.
///
/// There is no separate beginning: a writer opens its output with the first page (a JSON array's `[`, a TSV header),
/// so that a listing whose first request fails writes nothing at all.
public protocol RecordWriter: Sendable {
    /// Whether the bytes are JSON, to be coloured as JSON when colour is on.
    var isJSON: Bool { get }
    /// The bytes for a page of records (none yet, when a table holds its first records to fit its widths).
    mutating func write(_ records: [JSONValue]) -> [UInt8]
    /// The bytes that end the output: a JSON array's `]` (`[]` when empty), a table's held rows, the header of an
    /// empty table or TSV.
    mutating func finish() -> [UInt8]
}

extension RecordWriter {
    /// Not JSON, unless the writer says so.
    public var isJSON: Bool { false }
}

/// JSON: one array, opened with the first records and closed by ``finish()``.
public struct JSONArrayWriter: RecordWriter {
    /// Pretty or compact.
    public let style: JSONStyle
    private var count = 0
    private var page = PageBytes()

    /// A writer of one array in `style`.
    public init(style: JSONStyle) { self.style = style }

    /// JSON.
    public var isJSON: Bool { true }

    /// `[` before the first record, `,` between records.
    public mutating func write(_ records: [JSONValue]) -> [UInt8] {
        var writer = JSONWriter(style: style)
        writer.bytes = page.take(reserving: records.count * 256)
        if count == 0 { writer.bytes.append(UInt8(ascii: "[")) }
        for record in records {
            if count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writer.newline(1)
            writer.write(record, indentLevel: 1)
            count += 1
        }
        return page.keep(writer.bytes)
    }

    /// `]` (`[]` when nothing was written).
    public mutating func finish() -> [UInt8] {
        var writer = JSONWriter(style: style)
        if count == 0 { writer.bytes.append(UInt8(ascii: "[")) }
        if count > 0 { writer.newline(0) }
        writer.bytes.append(contentsOf: Array("]\n".utf8))
        return writer.bytes
    }
}

/// NDJSON (and a bulk job's JSON records, compact): one record per line.
public struct NDJSONWriter: RecordWriter {
    /// Compact, for one record per line (pretty spreads a record over lines).
    public let style: JSONStyle
    private var page = PageBytes()

    /// A writer of one record per line in `style`.
    public init(style: JSONStyle) { self.style = style }

    /// JSON.
    public var isJSON: Bool { true }

    /// One line per record.
    public mutating func write(_ records: [JSONValue]) -> [UInt8] {
        var writer = JSONWriter(style: style)
        writer.bytes = page.take(reserving: records.count * 256)
        for record in records {
            writer.write(record)
            writer.bytes.append(UInt8(ascii: "\n"))
        }
        return page.keep(writer.bytes)
    }

    /// Nothing: every line is already whole.
    public func finish() -> [UInt8] { [] }
}

/// A table: the first ``RecordFormatter/tableSample`` records are held to fit the column widths, then
/// printed under the header; later records stream.
public struct TableWriter: RecordWriter {
    /// The columns, the width and the colours.
    public let formatter: RecordFormatter
    private var widths: RecordFormatter.Widths?
    private var held: [JSONValue] = []

    /// A writer of a table laid out by `formatter`.
    public init(formatter: RecordFormatter) { self.formatter = formatter }

    /// Nothing while the first records are held; then the header and them; then a line per record.
    public mutating func write(_ records: [JSONValue]) -> [UInt8] {
        guard let widths else {
            held += records
            return held.count < RecordFormatter.tableSample ? [] : flush()
        }
        var text = ""
        for record in records { text += formatter.tableLine(record, widths: widths) }
        return Array(text.utf8)
    }

    /// The header and the records still held (the header alone when there were none).
    public mutating func finish() -> [UInt8] { widths == nil ? flush() : [] }

    /// Fits the widths to the first ``RecordFormatter/tableSample`` records held (however the pages came), and prints
    /// the header and every record held.
    private mutating func flush() -> [UInt8] {
        let fitted = formatter.widths(for: Array(held.prefix(RecordFormatter.tableSample)))
        widths = fitted
        var text = formatter.tableHeader(fitted)
        for record in held { text += formatter.tableLine(record, widths: fitted) }
        held = []
        return Array(text.utf8)
    }
}

/// TSV: the header line, then one line per record.
public struct TSVWriter: RecordWriter {
    /// The columns.
    public let formatter: RecordFormatter
    private var started = false

    /// A writer of `formatter`'s columns as TSV.
    public init(formatter: RecordFormatter) { self.formatter = formatter }

    /// The header before the first records, then a line per record.
    public mutating func write(_ records: [JSONValue]) -> [UInt8] {
        var text = started ? "" : formatter.tsvHeader
        started = true
        for record in records { text += formatter.tsvLine(record) }
        return Array(text.utf8)
    }

    /// The header, when no record was written.
    public mutating func finish() -> [UInt8] { started ? [] : write([]) }
}

/// Raw: one column's value per line, as `jq -r`.
public struct RawWriter: RecordWriter {
    /// The one column.
    public let formatter: RecordFormatter

    /// A writer of `formatter`'s first column.
    public init(formatter: RecordFormatter) { self.formatter = formatter }

    /// One line per record.
    public func write(_ records: [JSONValue]) -> [UInt8] {
        var text = ""
        for record in records { text += formatter.rawLine(record) }
        return Array(text.utf8)
    }

    /// Nothing.
    public func finish() -> [UInt8] { [] }
}

/// The bytes of the page a JSON writer wrote last, kept so that the next page is written into the same memory: a
/// listing then grows one buffer to its largest page once, instead of allocating and growing a fresh one per page
/// (which made the C heap give memory back to the system and fault it in again, page after page).
///
/// A copy of the writer (a stream copied out of an enum and back, once per write) starts a buffer of its own, as
/// if nothing were kept, so that it never allocates the kept size for a small page.
struct PageBytes: Sendable {
    /// Touched only while this value holds the one reference to it (otherwise it is replaced first).
    private final class Kept: @unchecked Sendable {
        var bytes: [UInt8] = []
    }

    private var kept = Kept()

    /// An empty buffer with at least `capacity`, in the last page's memory when nothing else holds it any more.
    mutating func take(reserving capacity: Int) -> [UInt8] {
        if !isKnownUniquelyReferenced(&kept) { kept = Kept() }
        var bytes = kept.bytes
        kept.bytes = []
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
        return bytes
    }

    /// Keeps `bytes` for the next page and hands them on.
    mutating func keep(_ bytes: [UInt8]) -> [UInt8] {
        if !isKnownUniquelyReferenced(&kept) { kept = Kept() }
        kept.bytes = bytes
        return bytes
    }
}
