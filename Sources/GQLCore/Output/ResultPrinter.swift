/// Writes results to an ``OutputSink`` as JSON, NDJSON or a streamed JSON array, or, for model records, as a table,
/// TSV or raw values (see ``RecordFormatter``). JSON and tables are coloured when asked.
///
/// It writes what gqlc writes, byte for byte: the executable makes one over its standard output, a program over any
/// sink. Whether to colour, the JSON layout and the width come in as values; nothing here looks at a terminal.
public struct ResultPrinter: Sendable {
    /// Where the bytes go.
    public let sink: any OutputSink
    /// The format of every result and record.
    public let format: OutputFormat
    /// The layout of JSON (the record formats are always compact inside a cell).
    public let style: JSONStyle
    /// The schema whose AWSJSON fields are written as the JSON they hold; nil writes them as the strings AppSync sends.
    public var decodingSchema: ModelSchema?
    /// Colours JSON, when colour is on.
    public let colorizer: JSONColorizer?
    /// Rows of records, for the table, tsv and raw formats.
    public var records: RecordFormatter

    /// A printer to `sink`. `coloured` colours the formats that take colour (``OutputFormat/takesColour``); `width` is
    /// the terminal's width a table is fitted to (nil leaves it unfitted). `columns` are the record formats' columns
    /// (dot paths); JSON ignores them. Without columns (records no schema describes), a table or TSV takes the
    /// records' own keys.
    public init(
        sink: any OutputSink, format: OutputFormat, style: JSONStyle, coloured: Bool, width: Int?, columns: [String] = []
    ) {
        self.sink = sink
        self.format = format
        self.style = style
        let palette: Palette? = coloured && format.takesColour ? .standard : nil
        colorizer = palette.map(JSONColorizer.init(palette:))
        records = RecordFormatter(columns: columns, palette: palette, width: width)
    }

    /// Prints one value followed by a newline; false if the write failed.
    /// For NDJSON (and the record formats) an array is printed one element per line, as a listing is.
    @discardableResult public func print(_ value: JSONValue) -> Bool {
        let value = decoded(value)
        let elements = value.arrayValue
        if format.isRecordFormat || (format == .ndjson && elements != nil) {
            let items = elements ?? (value.isNull ? [] : [value])
            var printer = self
            // Records that no schema describes (raw, a custom operation's result) are tabled by their own keys.
            if format.isRecordFormat, records.columns.isEmpty, format != .raw {
                printer.records = RecordFormatter(columns: Self.keys(of: items), palette: records.palette, width: records.width)
            }
            var stream = printer.beginList()
            return stream.write(items) && stream.finish()
        }
        var writer = JSONWriter(style: style)
        writer.write(value)
        writer.bytes.append(UInt8(ascii: "\n"))
        return emit(writer.bytes)
    }

    /// The keys of `records`, in the order they first appear (`__typename` left out): the columns of a table of
    /// records that no schema describes.
    public static func keys(of records: [JSONValue]) -> [String] {
        var keys: [String] = []
        for case .object(let object) in records {
            for key in object.keys where key != "__typename" && !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// Writes JSON bytes, coloured when colour is on; false if the write failed.
    @discardableResult public func emit(_ bytes: [UInt8]) -> Bool {
        sink.write(bytes: colorizer?.colorize(bytes) ?? bytes)
    }

    /// `value` with its AWSJSON fields decoded when ``decodingSchema`` is set.
    public func decoded(_ value: JSONValue) -> JSONValue {
        decodingSchema.map { AWSJSONDecoding.decode(value, schema: $0) } ?? value
    }

    /// Starts streaming a list: a JSON array that is opened with the first records and closed by
    /// ``ListStream/finish()``, or one line per item for NDJSON and the record formats. `jsonLines` writes JSON one
    /// compact record per line whichever JSON format was asked for (a bulk job's records, which finish one at a time).
    public func beginList(jsonLines: Bool = false) -> ListStream {
        let writer = jsonLines && !format.isRecordFormat
            ? NDJSONWriter(style: .compact) : format.writer(style: style, formatter: records)
        return ListStream(printer: self, writer: writer)
    }

    /// Items streamed page by page, so that memory stays flat however long the list; the format is its
    /// ``RecordWriter``'s.
    public struct ListStream: Sendable {
        /// The printer whose sink, colours and decoding the stream writes with.
        public let printer: ResultPrinter
        private var writer: any RecordWriter
        private var count = 0
        /// Records per write, fitted to ``batchBytes`` from the bytes the records so far took.
        private var batchRecords = 64

        /// A page is written in batches of records of about this many bytes (one write each): the writer's buffer,
        /// which it keeps from page to page, then stays small next to a page and its parsed records.
        static let batchBytes = 64 << 10

        /// A stream of `writer`'s format through `printer`.
        public init(printer: ResultPrinter, writer: any RecordWriter) {
            self.printer = printer
            self.writer = writer
        }

        /// Whether a record was written (or held): a listing that received none prints nothing when it fails.
        public var hasRecords: Bool { count > 0 }

        /// Writes a page of items, in writes of about ``batchBytes`` that each end after a record; false if a write
        /// failed (nothing more of the page is written). An empty page writes nothing.
        public mutating func write(_ items: [JSONValue]) -> Bool {
            guard !items.isEmpty else { return true }
            count += items.count
            var start = 0
            while start < items.count {
                let end = min(items.count, start + batchRecords)
                let batch = start == 0 && end == items.count ? items : Array(items[start..<end])
                let bytes = writer.write(printer.decodingSchema == nil ? batch : batch.map(printer.decoded))
                if !bytes.isEmpty { batchRecords = max(1, Self.batchBytes * batch.count / bytes.count) }
                guard emit(bytes) else { return false }
                start = end
            }
            return true
        }

        /// Ends the output, so that what was printed is valid JSON and a table prints what it holds (an empty
        /// table or TSV still gets its header); false if the write failed.
        @discardableResult public mutating func finish() -> Bool {
            emit(writer.finish())
        }

        private func emit(_ bytes: [UInt8]) -> Bool {
            guard !bytes.isEmpty else { return true }
            return writer.isJSON ? printer.emit(bytes) : printer.sink.write(bytes: bytes)
        }
    }
}
