import GQLCore
import Synchronization

/// Prints a bulk job's records as they finish, one at a time: one compact JSON line each (`--output json` and
/// `ndjson` alike, coloured as `list` colours them), or rows of a table, TSV or raw values. A table's column
/// widths are fitted to its first ``tableSample`` records, which are held until then, so memory stays flat
/// however long the job.
final class BulkRecordPrinter: Sendable {
    /// How many records a table's widths are fitted to.
    static let tableSample = 50

    private struct State: ~Copyable {
        var stream: ResultPrinter.ListStream
        /// A table's first records, until there are enough to fit the widths.
        var held: [JSONValue] = []
        var fitted = false
    }

    private let printer: ResultPrinter
    private let state: Mutex<State>

    init(_ printer: ResultPrinter) {
        self.printer = printer
        state = Mutex(State(stream: printer.beginList()))
    }

    /// Prints one record (or holds it, for a table's first rows).
    func write(_ record: JSONValue) {
        guard printer.format.isRecordFormat else {
            var writer = JSONWriter(style: .compact)
            writer.write(printer.decoded(record))
            writer.bytes.append(UInt8(ascii: "\n"))
            printer.emit(writer.bytes)
            return
        }
        state.withLock { state in
            guard printer.format == .table, !state.fitted else {
                _ = state.stream.write([record])
                return
            }
            state.held.append(record)
            if state.held.count >= Self.tableSample { flush(&state) }
        }
    }

    /// Prints what is held and ends the output (an empty table or TSV still gets its header).
    func finish() {
        guard printer.format.isRecordFormat else { return }
        state.withLock { state in
            flush(&state)
            state.stream.finish()
        }
    }

    private func flush(_ state: inout State) {
        guard !state.fitted else { return }
        state.fitted = true
        if !state.held.isEmpty { _ = state.stream.write(state.held) }
        state.held = []
    }
}
