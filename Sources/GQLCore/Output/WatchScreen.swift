import Synchronization

/// Where a watched listing's reports (``WatchReport``) go: the records as JSON lines, or as a ``LiveTable`` on the
/// terminal, whose status line shows the connection's state (`q` leaves it, see ``withKeys(cancellation:_:)``).
/// What else is reported is told to `say` as ``LiveNotice``s: beside JSON lines, or only when the table cannot show it.
///
/// Shared by the thread that reports and the one that reads keys.
public final class WatchScreen: Sendable {
    /// How the records are shown.
    public enum Sink: Sendable {
        /// JSON lines (or one array), each change as `{"event": …, "item": …}`.
        case lines(ResultPrinter.ListStream)
        /// A live table on the terminal.
        case table(LiveTable)
    }

    private struct State {
        var sink: Sink
        var records: [JSONValue] = []
        var closed = false
        var quitByKey = false
        var listingFailure: ListResult?
        /// How often a polled listing is read again.
        var interval = 0.0
    }

    private let state: Mutex<State>
    /// The model watched, in notices.
    private let model: String
    /// The primary-key fields, which match a changed row on the table.
    private let keyFields: [String]
    /// Where notices go.
    private let say: @Sendable (LiveNotice) -> Void
    /// The terminal's keys, read while the table is shown.
    private let keys: KeyReader?

    /// A screen of `model`'s records (told apart by `keyFields`) on `sink`; notices go to `say`. A table switches
    /// the terminal to its alternate screen and to single keys now.
    public init(_ sink: Sink, model: String, keyFields: [String], say: @escaping @Sendable (LiveNotice) -> Void) {
        self.model = model
        self.keyFields = keyFields
        self.say = say
        if case .table(let table) = sink {
            table.begin()
            keys = KeyReader()
        } else {
            keys = nil
        }
        state = Mutex(State(sink: sink))
    }

    /// Whether the records are shown as a live table.
    public var isTable: Bool { keys != nil }

    /// `q` was pressed on the live table.
    public var quitByKey: Bool { state.withLock { $0.quitByKey } }

    /// Why the listing stopped before its end, to be said once the table is put away.
    public var listingFailure: ListResult? { state.withLock { $0.listingFailure } }

    /// Shows `report`: changes are written or drawn, news goes to the status line or to `say`, a failed listing is
    /// kept (``listingFailure``), and `live` gets what the subscriptions said. False once the output is closed.
    public func show(_ report: WatchReport, live: (LiveEvent) -> Void = { _ in }) -> Bool {
        switch report {
        case .changes(let events, let records):
            return show(events, records: records)
        case .subscribed(let names):
            if !isTable { say(.subscribed(names)) }
            status("subscribed, listing…")
        case .relistedAfterReconnect(let changes):
            if !isTable { say(.relisted(model: model, changes: changes)) }
            status("reconnected; listed again: \(changes) changes")
        case .pollFailed:
            say(.pollFailed(model: model, retryIn: state.withLock { $0.interval }))
        case .listingFailed(let result):
            state.withLock { $0.listingFailure = result }
        case .live(let event):
            live(event)
        }
        return true
    }

    /// Says that the listing is read again every `seconds` (on the table's status line, else to `say`).
    public func startPolling(every seconds: Double) {
        state.withLock { $0.interval = seconds }
        if isTable {
            status("listing every \(DurationText.seconds(seconds)) s")
        } else {
            say(.polling(model: model, every: seconds))
        }
    }

    /// Runs `body`, reading the table's keys on a second thread meanwhile: `q` sets ``quitByKey`` and cancels
    /// `cancellation`; the marks of changed rows expire as time passes. Without a table, just runs `body`.
    public func withKeys(cancellation: CancellationFlag, _ body: () -> Void) {
        guard let keys else { return body() }
        let stopKeys = CancellationFlag()
        WorkerThreads.run(count: 1, { _ in
            keys.run(stop: stopKeys, onTick: { self.tick() }, onQuit: {
                self.state.withLock { $0.quitByKey = true }
                cancellation.cancel()
            })
        }, meanwhile: {
            body()
            stopKeys.cancel()
        })
        keys.restore()
    }

    /// Writes the events (or redraws the table with `records`); false once the output is closed.
    private func show(_ events: [WatchEvent], records: [JSONValue]) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.records = records
            switch state.sink {
            case .lines(var output):
                if !output.write(events.map(\.envelope)) { state.closed = true }
                state.sink = .lines(output)
            case .table(var table):
                table.note(events)
                // While the first listing pages, the table is drawn once a page, not once a record.
                table.draw(records, keyFields: keyFields)
                state.sink = .table(table)
            }
            return !state.closed
        }
    }

    /// A new status on the table (the lines say nothing of it).
    private func status(_ text: String) {
        redraw { table in
            table.setStatus(text)
            return true
        }
    }

    /// Redraws the table once a changed row's mark has expired.
    private func tick() {
        redraw { table in table.markExpired }
    }

    private func redraw(_ change: (inout LiveTable) -> Bool) {
        state.withLock { state in
            guard case .table(var table) = state.sink, !state.closed, change(&table) else { return }
            table.draw(state.records, keyFields: keyFields)
            state.sink = .table(table)
        }
    }

    /// Ends the output: closes the JSON, or puts the table away and gives the terminal its modes back. Once only.
    public func finish() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            switch state.sink {
            case .lines(var output): output.finish()
            case .table(let table): table.end()
            }
        }
        keys?.restore()
    }
}
