import Synchronization

/// Prints a bulk job's records as they finish, one at a time and from any thread: one compact JSON line each (JSON
/// and NDJSON alike, coloured as a listing is), or rows of a table, TSV or raw values. A table's column widths are
/// fitted to its first ``RecordFormatter/tableSample`` records, which are held until then, so memory stays flat
/// however long the job.
public final class BulkRecordPrinter: Sendable {
    private let stream: Mutex<ResultPrinter.ListStream>

    /// A printer of records through `printer`'s sink, format and colours.
    public init(_ printer: ResultPrinter) {
        stream = Mutex(printer.beginList(jsonLines: true))
    }

    /// Prints one record (or holds it, for a table's first rows); false if the write failed.
    public func write(_ record: JSONValue) -> Bool {
        stream.withLock { $0.write([record]) }
    }

    /// Prints what is held and ends the output (an empty table or TSV still gets its header); false if the write
    /// failed.
    @discardableResult public func finish() -> Bool {
        stream.withLock { $0.finish() }
    }
}
