import GQLCore
import Synchronization

/// Prints a bulk job's records as they finish, one at a time: one compact JSON line each (`--output json` and
/// `ndjson` alike, coloured as `list` colours them), or rows of a table, TSV or raw values. A table's column
/// widths are fitted to its first ``RecordFormatter/tableSample`` records, which are held until then, so memory
/// stays flat however long the job.
final class BulkRecordPrinter: Sendable {
    private let printer: ResultPrinter
    private let stream: Mutex<ResultPrinter.ListStream>

    init(_ printer: ResultPrinter) {
        self.printer = printer
        stream = Mutex(printer.beginList())
    }

    /// Prints one record (or holds it, for a table's first rows); false if the write failed.
    func write(_ record: JSONValue) -> Bool {
        guard printer.format.isRecordFormat else {
            var writer = JSONWriter(style: .compact)
            writer.write(printer.decoded(record))
            writer.bytes.append(UInt8(ascii: "\n"))
            return printer.emit(writer.bytes)
        }
        return stream.withLock { $0.write([record]) }
    }

    /// Prints what is held and ends the output (an empty table or TSV still gets its header); false if the write
    /// failed.
    @discardableResult func finish() -> Bool {
        guard printer.format.isRecordFormat else { return true }
        return stream.withLock { $0.finish() }
    }
}
