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
        let colored = switch globals.color {
        case .always: true
        case .never: false
        case .auto: console.outputIsTerminal
        }
        let palette: Palette? = colored && (format == .json || format == .ndjson || format == .table) ? .standard : nil
        colorizer = palette.map(JSONColorizer.init(palette:))
        records = RecordFormatter(format: globals.output, columns: columns, palette: palette, width: console.width)
    }

    /// Prints one value followed by a newline; false if standard output was closed.
    /// For NDJSON (and the record formats) an array is printed one element per line, as a listing is.
    @discardableResult func print(_ value: JSONValue) -> Bool {
        let value = decoded(value)
        if format.isRecordFormat {
            let elements = value.arrayValue ?? (value.isNull ? [] : [value])
            var printer = self
            if records.columns.isEmpty, format != .raw {
                printer.records = RecordFormatter(
                    format: format, columns: Self.keys(of: elements), palette: records.palette, width: records.width)
            }
            var stream = printer.beginList()
            guard stream.write(elements) else { return false }
            stream.finish()
            return true
        }
        var writer = JSONWriter(style: style)
        if format == .ndjson, case .array(let elements) = value {
            for element in elements {
                writer.write(element)
                writer.bytes.append(UInt8(ascii: "\n"))
            }
            return writer.bytes.isEmpty || emit(writer.bytes)
        }
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
    /// or one line per item for NDJSON and the record formats.
    func beginList() -> ListStream { ListStream(printer: self) }

    /// Items streamed page by page, so that memory stays flat however long the list.
    struct ListStream {
        let printer: ResultPrinter
        private var count = 0
        /// True once something was written (the array's `[`, an NDJSON line, a header).
        private(set) var opened = false
        /// A table's column widths, fixed by its first page.
        private var widths: RecordFormatter.Widths?

        init(printer: ResultPrinter) { self.printer = printer }

        /// Writes a page of items with one system call; false if standard output was closed.
        mutating func write(_ items: [JSONValue]) -> Bool {
            let items = printer.decodingSchema == nil ? items : items.map(printer.decoded)
            if printer.format.isRecordFormat { return writeRecords(items) }
            var writer = JSONWriter(style: printer.style)
            writer.bytes.reserveCapacity(items.count * 256)
            if printer.format == .ndjson {
                for item in items {
                    writer.write(item)
                    writer.bytes.append(UInt8(ascii: "\n"))
                }
            } else {
                if !opened { writer.bytes.append(UInt8(ascii: "[")) }
                for item in items {
                    if count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                    writer.newline(1)
                    writer.write(item, indentLevel: 1)
                    count += 1
                }
            }
            opened = true
            return writer.bytes.isEmpty || printer.emit(writer.bytes)
        }

        private mutating func writeRecords(_ items: [JSONValue]) -> Bool {
            let formatter = printer.records
            var text = ""
            switch printer.format {
            case .table:
                if widths == nil {
                    let fitted = formatter.widths(for: items)
                    widths = fitted
                    text += formatter.tableHeader(fitted)
                }
                let widths = self.widths ?? []
                for item in items { text += formatter.tableLine(item, widths: widths) }
            case .tsv:
                if !opened { text += formatter.tsvHeader }
                for item in items { text += formatter.tsvLine(item) }
            default:
                for item in items { text += formatter.rawLine(item) }
            }
            opened = true
            return text.isEmpty || printer.sink.write(bytes: Array(text.utf8))
        }

        /// Closes the array (NDJSON needs nothing), so that what was printed is valid JSON; an empty table or
        /// TSV still gets its header.
        mutating func finish() {
            switch printer.format {
            case .json:
                var writer = JSONWriter(style: printer.style)
                if !opened { writer.bytes.append(UInt8(ascii: "[")) }
                if count > 0 { writer.newline(0) }
                writer.bytes.append(contentsOf: Array("]\n".utf8))
                opened = true
                _ = printer.emit(writer.bytes)
            case .table, .tsv:
                if !opened { _ = writeRecords([]) }
            case .ndjson, .raw:
                break
            }
        }
    }
}
