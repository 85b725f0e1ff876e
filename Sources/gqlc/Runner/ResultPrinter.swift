import GQLCore

/// Writes results to standard output as JSON, NDJSON or a streamed JSON array, or, for model records,
/// as a table, TSV or raw values (see ``RecordFormatter``). JSON and tables are coloured when asked.
struct ResultPrinter {
    let sink: any TextSink
    let format: GlobalOptions.OutputFormat
    let style: JSONStyle
    /// With `--decode-json-fields`, the schema whose AWSJSON fields are printed as JSON.
    var decodingSchema: ModelSchema?
    /// Colours JSON, when colour is on.
    let colorizer: JSONColorizer?
    /// Rows of records, for the table, tsv and raw formats.
    var records: RecordFormatter

    /// `columns` are the record formats' columns (dot paths); JSON ignores them. Without columns (`raw`, which has
    /// no schema), a table or TSV takes the records' own keys.
    init(console: Console, globals: GlobalOptions, columns: [String] = []) {
        sink = console.output
        format = globals.output
        switch (globals.output, globals.layout) {
        case (.json, .pretty): style = .pretty
        case (.json, .automatic): style = console.outputIsTerminal ? .pretty : .compact
        default: style = .compact
        }
        let colored = Palette.isOn(globals, console: console)
        let palette: Palette? = colored && (format == .json || format == .ndjson || format == .table) ? .standard : nil
        colorizer = palette.map(JSONColorizer.init(palette:))
        records = RecordFormatter(format: globals.output, columns: columns, palette: palette, width: console.width)
    }

    /// Prints one value followed by a newline; false if standard output was closed.
    /// For NDJSON (and the record formats) an array is printed one element per line, as a listing is.
    @discardableResult func print(_ value: JSONValue) -> Bool {
        let value = decoded(value)
        let elements = value.arrayValue
        if format.isRecordFormat || (format == .ndjson && elements != nil) {
            let items = elements ?? (value.isNull ? [] : [value])
            var printer = self
            // Records that no schema describes (raw, a custom operation's result) are tabled by their own keys.
            if format.isRecordFormat, records.columns.isEmpty, format != .raw {
                printer.records = RecordFormatter(
                    format: format, columns: Self.keys(of: items), palette: records.palette, width: records.width)
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
    static func keys(of records: [JSONValue]) -> [String] {
        var keys: [String] = []
        for case .object(let object) in records {
            for key in object.keys where key != "__typename" && !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// Writes JSON bytes, coloured when colour is on.
    @discardableResult func emit(_ bytes: [UInt8]) -> Bool {
        sink.write(bytes: colorizer?.colorize(bytes) ?? bytes)
    }

    /// `value` with its AWSJSON fields decoded when `--decode-json-fields` asked for it.
    func decoded(_ value: JSONValue) -> JSONValue {
        decodingSchema.map { AWSJSONDecoding.decode(value, schema: $0) } ?? value
    }

    /// Starts streaming a list: a JSON array that is opened now and closed by ``ListStream/finish()``,
    /// or one line per item for NDJSON and the record formats. `jsonLines` prints JSON one compact record per line
    /// whichever JSON format was asked for (a bulk job's records, which finish one at a time).
    func beginList(jsonLines: Bool = false) -> ListStream {
        let writer = jsonLines && !format.isRecordFormat
            ? NDJSONWriter(style: .compact) : RecordWriters.make(format, style: style, formatter: records)
        return ListStream(printer: self, writer: writer)
    }

    /// Items streamed page by page, so that memory stays flat however long the list; the format is its
    /// ``RecordWriter``'s.
    struct ListStream {
        let printer: ResultPrinter
        private var writer: any RecordWriter
        private var count = 0

        init(printer: ResultPrinter, writer: any RecordWriter) {
            self.printer = printer
            self.writer = writer
        }

        /// Whether a record was written (or held): a listing that received none prints nothing when it fails.
        var hasRecords: Bool { count > 0 }

        /// Writes a page of items with one system call; false if the write failed (only when the sink defers
        /// failures: standard output ends the process). An empty page writes nothing.
        mutating func write(_ items: [JSONValue]) -> Bool {
            guard !items.isEmpty else { return true }
            count += items.count
            return emit(writer.write(printer.decodingSchema == nil ? items : items.map(printer.decoded)))
        }

        /// Ends the output, so that what was printed is valid JSON and a table prints what it holds (an empty
        /// table or TSV still gets its header); false if the write failed.
        @discardableResult mutating func finish() -> Bool {
            emit(writer.finish())
        }

        private func emit(_ bytes: [UInt8]) -> Bool {
            guard !bytes.isEmpty else { return true }
            return writer.isJSON ? printer.emit(bytes) : printer.sink.write(bytes: bytes)
        }
    }
}
