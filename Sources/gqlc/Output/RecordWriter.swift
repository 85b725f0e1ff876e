import GQLCore

/// Turns a stream of records, page by page, into the bytes of one output format: one type per format, chosen in
/// one place (``RecordWriters/make(_:style:formatter:)``). A writer returns bytes and never writes them itself,
/// so ``ResultPrinter/ListStream`` owns the one place where output can fail.
protocol RecordWriter {
    /// Whether the bytes are JSON, to be coloured as JSON when colour is on.
    var isJSON: Bool { get }
    /// The bytes for a page of records (none yet, when a table holds its first records to fit its widths).
    mutating func write(_ records: [JSONValue]) -> [UInt8]
    /// The bytes that end the output: a JSON array's `]` (`[]` when empty), a table's held rows, the header of an
    /// empty table or TSV.
    mutating func finish() -> [UInt8]
}

extension RecordWriter {
    var isJSON: Bool { false }
}

/// The one list of formats and their writers.
enum RecordWriters {
    static func make(_ format: GlobalOptions.OutputFormat, style: JSONStyle, formatter: RecordFormatter) -> any RecordWriter {
        switch format {
        case .json: JSONArrayWriter(style: style)
        case .ndjson: NDJSONWriter(style: style)
        case .table: TableWriter(formatter: formatter)
        case .tsv: TSVWriter(formatter: formatter)
        case .raw: RawWriter(formatter: formatter)
        }
    }
}

/// `--output json`: one array, opened with the first records and closed by ``finish()``.
struct JSONArrayWriter: RecordWriter {
    let style: JSONStyle
    private var count = 0

    init(style: JSONStyle) { self.style = style }

    var isJSON: Bool { true }

    mutating func write(_ records: [JSONValue]) -> [UInt8] {
        var writer = JSONWriter(style: style)
        writer.bytes.reserveCapacity(records.count * 256)
        if count == 0 { writer.bytes.append(UInt8(ascii: "[")) }
        for record in records {
            if count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writer.newline(1)
            writer.write(record, indentLevel: 1)
            count += 1
        }
        return writer.bytes
    }

    mutating func finish() -> [UInt8] {
        var writer = JSONWriter(style: style)
        if count == 0 { writer.bytes.append(UInt8(ascii: "[")) }
        if count > 0 { writer.newline(0) }
        writer.bytes.append(contentsOf: Array("]\n".utf8))
        return writer.bytes
    }
}

/// `--output ndjson` (and a bulk job's JSON records, compact): one record per line.
struct NDJSONWriter: RecordWriter {
    let style: JSONStyle

    var isJSON: Bool { true }

    func write(_ records: [JSONValue]) -> [UInt8] {
        var writer = JSONWriter(style: style)
        writer.bytes.reserveCapacity(records.count * 256)
        for record in records {
            writer.write(record)
            writer.bytes.append(UInt8(ascii: "\n"))
        }
        return writer.bytes
    }

    func finish() -> [UInt8] { [] }
}

/// `--output table`: the first ``RecordFormatter/tableSample`` records are held to fit the column widths, then
/// printed under the header; later records stream.
struct TableWriter: RecordWriter {
    let formatter: RecordFormatter
    private var widths: RecordFormatter.Widths?
    private var held: [JSONValue] = []

    init(formatter: RecordFormatter) { self.formatter = formatter }

    mutating func write(_ records: [JSONValue]) -> [UInt8] {
        guard let widths else {
            held += records
            return held.count < RecordFormatter.tableSample ? [] : flush()
        }
        var text = ""
        for record in records { text += formatter.tableLine(record, widths: widths) }
        return Array(text.utf8)
    }

    mutating func finish() -> [UInt8] { widths == nil ? flush() : [] }

    /// Fits the widths to the records held, and prints the header and them.
    private mutating func flush() -> [UInt8] {
        let fitted = formatter.widths(for: held)
        widths = fitted
        var text = formatter.tableHeader(fitted)
        for record in held { text += formatter.tableLine(record, widths: fitted) }
        held = []
        return Array(text.utf8)
    }
}

/// `--output tsv`: the header line, then one line per record.
struct TSVWriter: RecordWriter {
    let formatter: RecordFormatter
    private var started = false

    init(formatter: RecordFormatter) { self.formatter = formatter }

    mutating func write(_ records: [JSONValue]) -> [UInt8] {
        var text = started ? "" : formatter.tsvHeader
        started = true
        for record in records { text += formatter.tsvLine(record) }
        return Array(text.utf8)
    }

    mutating func finish() -> [UInt8] { started ? [] : write([]) }
}

/// `--output raw`: one column's value per line, as `jq -r`.
struct RawWriter: RecordWriter {
    let formatter: RecordFormatter

    func write(_ records: [JSONValue]) -> [UInt8] {
        var text = ""
        for record in records { text += formatter.rawLine(record) }
        return Array(text.utf8)
    }

    func finish() -> [UInt8] { [] }
}
