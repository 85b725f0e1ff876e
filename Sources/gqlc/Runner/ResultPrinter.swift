import GQLCore

/// Writes results to standard output as JSON, NDJSON, or a streamed JSON array.
struct ResultPrinter {
    let sink: any TextSink
    let format: GlobalOptions.OutputFormat
    let style: JSONStyle
    /// With `--decode-json-fields`, the schema whose AWSJSON fields are printed as JSON.
    var decodingSchema: ModelSchema?

    init(console: Console, globals: GlobalOptions) {
        sink = console.output
        format = globals.output
        switch (globals.output, globals.layout) {
        case (.ndjson, _), (.json, .compact): style = .compact
        case (.json, .pretty): style = .pretty
        case (.json, .automatic): style = console.outputIsTerminal ? .pretty : .compact
        }
    }

    /// Prints one value followed by a newline; false if standard output was closed.
    /// For NDJSON an array is printed one element per line, as a listing is.
    @discardableResult func print(_ value: JSONValue) -> Bool {
        let value = decoded(value)
        var writer = JSONWriter(style: style)
        if format == .ndjson, case .array(let elements) = value {
            for element in elements {
                writer.write(element)
                writer.bytes.append(UInt8(ascii: "\n"))
            }
            return writer.bytes.isEmpty || sink.write(bytes: writer.bytes)
        }
        writer.write(value)
        writer.bytes.append(UInt8(ascii: "\n"))
        return sink.write(bytes: writer.bytes)
    }

    /// `value` with its AWSJSON fields decoded when `--decode-json-fields` asked for it.
    func decoded(_ value: JSONValue) -> JSONValue {
        decodingSchema.map { AWSJSONDecoding.decode(value, schema: $0) } ?? value
    }

    /// Starts streaming a list: a JSON array that is opened now and closed by ``ListStream/finish()``,
    /// or one line per item for NDJSON.
    func beginList() -> ListStream { ListStream(printer: self) }

    /// Items streamed page by page, so that memory stays flat however long the list.
    struct ListStream {
        let printer: ResultPrinter
        private var count = 0
        /// True once something was written (the array's `[`, or an NDJSON line).
        private(set) var opened = false

        init(printer: ResultPrinter) { self.printer = printer }

        /// Writes a page of items with one system call; false if standard output was closed.
        mutating func write(_ items: [JSONValue]) -> Bool {
            let items = printer.decodingSchema == nil ? items : items.map(printer.decoded)
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
            return writer.bytes.isEmpty || printer.sink.write(bytes: writer.bytes)
        }

        /// Closes the array (NDJSON needs nothing), so that what was printed is valid JSON.
        mutating func finish() {
            guard printer.format == .json else { return }
            var writer = JSONWriter(style: printer.style)
            if !opened { writer.bytes.append(UInt8(ascii: "[")) }
            if count > 0 { writer.newline(0) }
            writer.bytes.append(contentsOf: Array("]\n".utf8))
            opened = true
            printer.sink.write(bytes: writer.bytes)
        }
    }
}
