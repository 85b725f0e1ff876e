import GQLCore
import Synchronization

/// Prints a bulk job's records as they finish, one at a time: one compact JSON line each (`--output json` and
/// `ndjson` alike, coloured as `list` colours them), or rows of a table, TSV or raw values. A table's column
/// widths are fitted to its first ``RecordFormatter/tableSample`` records, which are held until then, so memory
/// stays flat however long the job.
final class BulkRecordPrinter: Sendable {
    private let stream: Mutex<ResultPrinter.ListStream>

    init(_ printer: ResultPrinter) {
        stream = Mutex(printer.beginList(jsonLines: true))
    }

    /// Prints one record (or holds it, for a table's first rows); false if the write failed.
    func write(_ record: JSONValue) -> Bool {
        stream.withLock { $0.write([record]) }
    }

    /// Prints what is held and ends the output (an empty table or TSV still gets its header); false if the write
    /// failed.
    @discardableResult func finish() -> Bool {
        stream.withLock { $0.finish() }
    }
}
