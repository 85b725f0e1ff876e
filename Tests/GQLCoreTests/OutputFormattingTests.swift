@testable import GQLCore
import Testing

/// The output writers' pieces: TSV escaping, table fitting, JSON colouring, what each format writes for no records, the progress line.
@Suite struct OutputFormattingTests {
    private func formatter(_ columns: [String], width: Int? = nil) -> RecordFormatter {
        RecordFormatter(columns: columns, palette: nil, width: width)
    }

    @Test func tsvEscapesAsPostgreSQLTextFormat() {
        #expect(RecordFormatter.escapeTSV("a\tb\nc\\d\re") == #"a\tb\nc\\d\re"#)
        #expect(RecordFormatter.escapeTSV("plain") == "plain")
        let record: JSONValue = ["title": "x\ty", "tags": ["a", "b"], "rating": nil, "blog": ["name": "B"]]
        let tsv = formatter(["title", "tags", "rating", "blog.name", "missing"])
        #expect(tsv.tsvHeader == "title\ttags\trating\tblog.name\tmissing\n")
        #expect(tsv.tsvLine(record) == "x\\ty\t[\"a\",\"b\"]\t\tB\t\n")
    }

    @Test func pathsThroughListsCollectEachElement() {
        let record: JSONValue = ["comments": ["items": [["content": "a"], ["content": "b"]], "nextToken": nil]]
        #expect(RecordFormatter.value(at: ["comments", "items", "content"], in: record) == ["a", "b"])
    }

    @Test func theShortFormOfAConnectionPathPassesThroughItsItems() {
        let record: JSONValue = ["comments": ["items": [["content": "a"], ["content": "b"]], "nextToken": nil]]
        #expect(RecordFormatter.value(at: ["comments", "content"], in: record) == ["a", "b"])
        #expect(RecordFormatter.value(at: ["comments", "nextToken"], in: record) == nil)
    }

    @Test func tsvEscapesEveryControlCharacter() {
        #expect(RecordFormatter.escapeTSV("a\u{1B}[31mb\u{07}\u{00}\u{7F}\u{9B}") == #"a\x1b[31mb\x07\x00\x7f\x9b"#)
    }

    @Test func aTableHoldsItsFirstRecordsToFitItsWidthsThenStreams() {
        var writer = TableWriter(formatter: formatter(["a"], width: 80))
        let short: JSONValue = ["a": "x"]
        for _ in 1..<RecordFormatter.tableSample { #expect(writer.write([short]).isEmpty) }
        let printed = String(decoding: writer.write([["a": "longer"]]), as: UTF8.self)
        #expect(printed.hasPrefix("a\nx\n") && printed.hasSuffix("longer\n"))
        #expect(String(decoding: writer.write([short]), as: UTF8.self) == "x\n")
        #expect(writer.finish().isEmpty)
    }

    /// The widths come from the first 50 records whether they arrive one by one or in one page of more (as
    /// docs/output.md says), so a listing's table does not depend on how its pages are batched.
    @Test func aTableFitsItsWidthsToItsFirstFiftyRecordsEvenWhenOnePageBringsMore() {
        var writer = TableWriter(formatter: formatter(["a", "b"], width: 80))
        var page = [JSONValue](repeating: ["a": "x", "b": "y"], count: RecordFormatter.tableSample + 10)
        page[RecordFormatter.tableSample + 5] = ["a": "a longer value", "b": "y"]
        let printed = String(decoding: writer.write(page), as: UTF8.self)
        #expect(printed.hasPrefix("a  b\nx  y\n"))
        #expect(printed.contains("a longer value  y\n"))
    }

    @Test func emptyOutputsEndAsEachFormatDoes() {
        var json = JSONArrayWriter(style: .compact)
        #expect(String(decoding: json.finish(), as: UTF8.self) == "[]\n")
        var tsv = TSVWriter(formatter: formatter(["a", "b"]))
        #expect(String(decoding: tsv.finish(), as: UTF8.self) == "a\tb\n")
        var table = TableWriter(formatter: formatter(["a", "b"]))
        #expect(String(decoding: table.finish(), as: UTF8.self) == "a  b\n")
        let lines = NDJSONWriter(style: .compact)
        #expect(lines.finish().isEmpty)
    }

    /// A listing's pages are written into one buffer, which grows to the largest page once, instead of a fresh one
    /// per page; bytes a caller still holds are never written over.
    @Test func jsonWritersWriteEachPageIntoTheLastPagesMemory() {
        func written(_ writer: inout some RecordWriter, _ records: [JSONValue]) -> (text: String, address: UInt) {
            let bytes = writer.write(records)
            return (String(decoding: bytes, as: UTF8.self), bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
        }
        var lines = NDJSONWriter(style: .compact)
        let first = written(&lines, [["id": "p1"], ["id": "p2"]])
        let second = written(&lines, [["id": "p3"]])
        #expect(first.text == "{\"id\":\"p1\"}\n{\"id\":\"p2\"}\n" && second.text == "{\"id\":\"p3\"}\n")
        #expect(second.address == first.address)
        var array = JSONArrayWriter(style: .compact)
        let opened = written(&array, [["id": "p1"]])
        let next = written(&array, [["id": "p2"]])
        #expect(opened.text + next.text + String(decoding: array.finish(), as: UTF8.self) == "[{\"id\":\"p1\"},{\"id\":\"p2\"}]\n")
        #expect(next.address == opened.address)

        let held = lines.write([["id": "p4"]])
        let after = lines.write([["id": "p5"], ["id": "p6"]])
        #expect(String(decoding: held, as: UTF8.self) == "{\"id\":\"p4\"}\n")
        #expect(String(decoding: after, as: UTF8.self) == "{\"id\":\"p5\"}\n{\"id\":\"p6\"}\n")
    }

    @Test func rawPrintsStringsUnquotedAndOtherValuesAsJSON() {
        let raw = formatter(["title"])
        #expect(raw.rawLine(["title": "a \"b\""]) == "a \"b\"\n")
        #expect(raw.rawLine(["title": 5]) == "5\n")
        #expect(raw.rawLine(["title": nil]) == "null\n")
    }

    @Test func tablesShrinkTheWidestColumnAndLeaveOutWhatDoesNotFit() {
        let records: [JSONValue] = [["a": "short", "b": "a much longer value here", "c": "third column value"]]
        let table = formatter(["a", "b", "c"], width: 30)
        let widths = table.widths(for: records)
        #expect(widths == [5, 10, 11])
        #expect(table.tableLine(records[0], widths: widths) == "short  a much lo…  third colu…\n")
        #expect(formatter(["a", "b", "c"], width: 20).widths(for: records) == [5, 13])
        #expect(formatter(["a", "b", "c"]).widths(for: records) == [5, 24, 18])
    }

    @Test func jsonColoursKeysStringsNumbersLiteralsAndNull() {
        let bytes = Array(#"{"k":"v\"x","n":-1.5e3,"t":true,"z":null,"l":["s"]}"#.utf8)
        let coloured = String(decoding: JSONColorizer(palette: .standard).colorize(bytes), as: UTF8.self)
        let e = "\u{1B}["
        #expect(coloured == #"{\#(e)1;34m"k"\#(e)0m:\#(e)32m"v\"x"\#(e)0m,\#(e)1;34m"n"\#(e)0m:\#(e)36m-1.5e3\#(e)0m,"#
            + #"\#(e)1;34m"t"\#(e)0m:\#(e)33mtrue\#(e)0m,\#(e)1;34m"z"\#(e)0m:\#(e)90mnull\#(e)0m,"#
            + #"\#(e)1;34m"l"\#(e)0m:[\#(e)32m"s"\#(e)0m]}"#)
    }

    @Test func progressLine() {
        #expect(ProgressReporter.line(items: 1234, pages: 2, elapsed: .milliseconds(1500)) == "1,234 items, 2 pages, 822 items/s, 1.5 s")
        #expect(ProgressReporter.line(items: 1, pages: 1, elapsed: .zero) == "1 item, 1 page, 0.0 s")
        #expect(ProgressReporter.line(items: 30, pages: 0, failed: 2, elapsed: .seconds(2)) == "30 items, 2 failed, 15 items/s, 2.0 s")
        #expect(ProgressReporter.grouped(1_000_000) == "1,000,000")
    }
}

/// Display widths against characters whose East Asian Width and category Unicode fixes.
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("日本", 4), ("한국", 4), ("ｆｕｌｌ", 8), ("e\u{301}", 1), ("🎉", 2), ("♥\u{FE0F}", 2),
        ("👩‍👩‍👧", 2), ("a\u{200B}b", 2), ("", 0),
    ])
    func widths(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func cutsWholeCharactersAndEndsWithAnEllipsis() {
        #expect(DisplayWidth.prefix("日本語です", columns: 6) == "日本…")
        #expect(DisplayWidth.prefix("abcdef", columns: 4) == "abc…")
        #expect(DisplayWidth.prefix("abc", columns: 3) == "abc")
    }
}

/// The record formats' columns over the blog example: a model's own scalar and enum fields, and raw's one scalar.
@Suite struct RecordColumnsTests {
    private let schema: ModelSchema

    init() throws {
        schema = try #require(try SchemaLoader.load(path: TestPaths.example("blog.json")).schema)
    }

    private func columns(_ fields: [String]?, _ format: OutputFormat) throws(RecordColumnsError) -> [String] {
        try RecordColumns.columns(of: "Post", in: schema, fields: fields, format: format)
    }

    @Test func aTableTakesTheModelsScalarAndEnumFieldsInSchemaOrder() throws {
        #expect(try columns(nil, .table) == [
            "id", "title", "content", "status", "rating", "views", "score", "featured", "publishedOn", "tags", "blogId",
            "createdAt", "updatedAt",
        ])
        #expect(try columns(["title", "blog.name"], .tsv) == ["title", "blog.name"])
        #expect(try columns(["title"], .json).isEmpty)
    }

    @Test func rawTakesOneFieldThatHoldsOneScalar() throws {
        #expect(try columns(["blog.name"], .raw) == ["blog.name"])
        #expect(throws: RecordColumnsError.rawNeedsOneField) { try columns(nil, .raw) }
        #expect(throws: RecordColumnsError.rawNeedsOneField) { try columns(["title", "views"], .raw) }
        for (field, problem) in [
            ("tags", "'tags' is a list"), ("metadata", "'metadata' is an embedded object"), ("blog", "'blog' is a record"),
            ("comments", "'comments' is a list"), ("title.x", "'title' has no fields"), ("nope", "'nope' names no field"),
        ] {
            #expect(throws: RecordColumnsError.rawNeedsScalar(problem)) { try columns([field], .raw) }
        }
    }
}
