import GQLCore
import Synchronization
import Testing

/// A program's own sink: it keeps the bytes; a closed one refuses every write, as a pipe whose reader went away.
private final class Buffer: OutputSink {
    private let bytes = Mutex<[UInt8]>([])
    let closed: Bool

    init(closed: Bool = false) { self.closed = closed }

    func write(_ text: String) { write(bytes: Array(text.utf8)) }

    @discardableResult func write(bytes new: [UInt8]) -> Bool {
        guard !closed else { return false }
        bytes.withLock { $0 += new }
        return true
    }

    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
}

/// A Swift program writes records as gqlc does, through the public API only: a page as a table and as NDJSON.
@Suite struct RecordWritingLibraryTests {
    private let page: [JSONValue] = [
        ["id": "p1", "title": "Sourdough", "rating": 5, "tags": ["bread"]],
        ["id": "p2", "title": "日本の包丁", "rating": nil, "tags": []],
    ]

    @Test func aPageAsATable() {
        let sink = Buffer()
        let printer = ResultPrinter(
            sink: sink, format: .table, style: .compact, coloured: false, width: nil, columns: ["id", "title", "rating"])
        var stream = printer.beginList()
        #expect(stream.write(page) && stream.finish())
        // Aligned by display width: the five CJK characters take ten columns; null is empty; the last column is not padded.
        #expect(sink.text == ["id  title       rating", "p1  Sourdough   5", "p2  日本の包丁  "].map { $0 + "\n" }.joined())
    }

    @Test func aPageAsNDJSON() throws {
        let sink = Buffer()
        let printer = ResultPrinter(sink: sink, format: .ndjson, style: .compact, coloured: false, width: nil)
        var stream = printer.beginList()
        #expect(stream.write(page) && stream.finish())
        let lines = sink.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "")
        #expect(try lines.dropLast().map { try JSONValue.parse(Array($0.utf8)) } == page)
        #expect(lines.first == #"{"id":"p1","title":"Sourdough","rating":5,"tags":["bread"]}"#)
    }

    @Test func aTableIsColouredOnlyWhenAsked() {
        let sink = Buffer()
        ResultPrinter(sink: sink, format: .table, style: .compact, coloured: true, width: nil, columns: ["rating"])
            .print(.array(page))
        #expect(sink.text == "\u{1B}[1mrating\u{1B}[0m\n\u{1B}[36m5\u{1B}[0m\n\n")
    }

    @Test func aFailedWriteIsReported() {
        var stream = ResultPrinter(sink: Buffer(closed: true), format: .ndjson, style: .compact, coloured: false, width: nil)
            .beginList()
        let written = stream.write(page)
        #expect(!written)
    }

    /// A format of the program's own: a writer type through the same stream.
    @Test func aProgramsOwnWriter() {
        struct IDs: RecordWriter {
            func write(_ records: [JSONValue]) -> [UInt8] { Array(records.compactMap { $0["id"]?.stringValue }.map { $0 + " " }.joined().utf8) }
            func finish() -> [UInt8] { Array("\n".utf8) }
        }
        let sink = Buffer()
        var stream = ResultPrinter.ListStream(
            printer: ResultPrinter(sink: sink, format: .json, style: .compact, coloured: false, width: nil), writer: IDs())
        #expect(stream.write(page) && stream.finish())
        #expect(sink.text == "p1 p2 \n")
    }
}
