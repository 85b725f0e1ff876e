import GQLCore
import Synchronization

/// `gqlc list --watch`: runs the core's ``WatchOperation`` and draws what it reports, as JSON lines or as a live
/// table on the terminal (`q` leaves it).
extension ListCommand {
    static func runWatch(
        _ invocation: ListInvocation, mode: ListInvocation.Watch, requests: ListRequests, columns: [String],
        runner: inout ModelCommandRunner
    ) -> ExitCode {
        var subscriptions: SubscribeOperation?
        if case .subscriptions = mode {
            do throws(RunFailure) {
                guard invocation.filter == nil else {
                    throw .usage(
                        "cannot watch \(invocation.model) through its subscriptions: \(ListCommand.filter.flagName) has no subscription "
                            + "form; use \(ListCommand.whereOption.flagName), or \(ListCommand.interval.flagName) SECONDS watches it by listing again instead")
                }
                do throws(SubscribeBuildError) {
                    subscriptions = try .watching(invocation.model, conditions: invocation.conditions, includes: invocation.includes, builder: runner.builder)
                } catch {
                    throw SubscribeCommand.phrased(error)
                }
            } catch {
                return runner.usage(error)
            }
        }
        if runner.globals.dryRun {
            var status = runner.execution.printDryRun(requests.page(limit: invocation.pageSize, nextToken: nil))
            for subscription in subscriptions?.subscriptions ?? [] where status == .success { status = runner.execution.printDryRun(subscription.request) }
            return status
        }
        let client: GraphQLClient
        do {
            client = try runner.execution.client()
        } catch {
            return runner.usage(error)
        }
        var globals = runner.globals
        let onTable = !globals.outputGiven && runner.session.console.outputIsTerminal
        if !globals.outputGiven { globals.output = onTable ? .table : .ndjson }
        let tableColumns: [String]
        do {
            tableColumns = onTable ? try runner.recordColumns(invocation.model, fields: invocation.fields, format: .table) : columns
        } catch {
            return runner.usage(error)
        }
        var printer = ResultPrinter(console: runner.session.console, globals: globals, columns: tableColumns)
        if globals.decodeJSONFields { printer.decodingSchema = runner.schema }
        let screen = WatchScreen(
            onTable
                ? .table(LiveTable(output: runner.session.console.output, formatter: printer.records, model: invocation.model, sort: invocation.watchSort))
                : .lines(printer.beginList()),
            keyFields: runner.keyFields(of: invocation.model))
        var operation = WatchOperation(
            model: invocation.model, requests: requests, pageSize: invocation.pageSize, keyFields: runner.keyFields(of: invocation.model))
        operation.duration = invocation.watchDuration
        let context = APIContext(schema: runner.schema, client: client)
        let (model, errorSink, diagnostics, cancellation) = (invocation.model, runner.session.console.error, runner.diagnostics, runner.session.cancellation)
        let interval: Double
        if case .polling(let seconds) = mode { interval = seconds } else { interval = 0 }
        /// Draws changes and phrases the rest; `live` says what the subscriptions said.
        func show(_ report: WatchReport, live: (LiveEvent) -> Void = { _ in }) -> Bool {
            switch report {
            case .changes(let events, let records):
                return screen.show(events, records: records)
            case .subscribed(let names):
                if !onTable { errorSink.write("subscribed: \(names.joined(separator: ", "))\n") }
                screen.status("subscribed, listing…")
            case .relistedAfterReconnect(let changes):
                if !onTable { errorSink.write("gqlc: listed \(model) again after the lost connection: \(changes) changes\n") }
                screen.status("reconnected; listed again: \(changes) changes")
            case .pollFailed:
                diagnostics.error("listing \(model) again failed; trying again in \(SubscriptionStream.seconds(interval)) s")
            case .listingFailed(let result):
                screen.listingFailure = result
            case .live(let event):
                live(event)
            }
            return true
        }
        let keys = onTable ? KeyReader() : nil
        let stopKeys = CancellationFlag()
        var status = ExitCode.success
        /// Runs `body` with the keys read on a second thread when the table is shown.
        func withKeys(_ body: () -> Void) {
            guard let keys else { return body() }
            WorkerThreads.run(count: 1, { _ in
                keys.run(stop: stopKeys, onTick: { screen.tick() }, onQuit: {
                    screen.quitByKey = true
                    cancellation.cancel()
                })
            }, meanwhile: {
                body()
                stopKeys.cancel()
            })
            keys.restore()
        }
        switch mode {
        case .polling(let seconds):
            if onTable {
                screen.status("listing every \(SubscriptionStream.seconds(seconds)) s")
            } else {
                diagnostics.error("watching \(model) by listing it every \(SubscriptionStream.seconds(seconds)) s")
            }
            withKeys {
                let kind = operation.poll(every: seconds, in: context, cancellation: cancellation) { report in
                    // A poll's failure is said before the table is put away.
                    if case .listingFailed(let result) = report { status = Self.reportListingFailure(result, diagnostics) }
                    return show(report)
                }
                screen.finish()
                if screen.listingFailure == nil { status = ExitCode(kind) }
            }
            screen.finish()
            return screen.quitByKey ? .success : status
        case .subscriptions:
            var stream = SubscriptionStream(
                session: runner.session, diagnostics: diagnostics, schemaFile: runner.execution.schemaFile, model: runner.schema.models[model],
                duration: invocation.watchDuration)
            let realtime: RealtimeContext
            do {
                realtime = try stream.connection()
            } catch {
                diagnostics.failure(error)
                screen.finish()
                return error.status
            }
            let reporter = stream
            withKeys {
                var ending: LiveEvent?
                let kind = operation.run(subscriptions ?? SubscribeOperation([]), in: context, realtime: realtime) { report in
                    show(report) { event in _ = reporter.note(event, ending: &ending) }
                }
                status = reporter.finish(kind, ending: ending)
            }
            screen.finish()
            if let failure = screen.listingFailure { return Self.reportListingFailure(failure, diagnostics) }
            return screen.quitByKey ? .success : status
        }
    }

    private static func reportListingFailure(_ result: ListResult, _ diagnostics: Diagnostics) -> ExitCode {
        switch result.stop {
        case .endOfList, .limitReached: return .success
        case .cancelled, .consumerFailed: return .interrupted
        case .graphQLErrors(let errors), .partial(let errors): diagnostics.graphQLErrors(errors)
        case .failed(let error): diagnostics.error(error)
        }
        return result.exitStatus
    }
}

/// Where a watch's records go, shared by the thread that reports them and the one that reads keys: JSON lines, or
/// a live table on the terminal.
private final class WatchScreen: @unchecked Sendable {
    enum Sink {
        case lines(ResultPrinter.ListStream)
        case table(LiveTable)
    }

    private struct State {
        var sink: Sink
        var records: [JSONValue] = []
        var closed = false
        var quitByKey = false
        var listingFailure: ListResult?
    }

    private let lock = Mutex(())
    private var value: State
    /// The primary-key fields, which match a changed row on the table.
    private let keyFields: [String]

    init(_ sink: Sink, keyFields: [String]) {
        self.keyFields = keyFields
        if case .table(let table) = sink { table.begin() }
        value = State(sink: sink)
    }

    private func withLock<T>(_ body: (inout State) -> T) -> T {
        lock.withLock { _ in body(&value) }
    }

    /// `q` was pressed on the live table.
    var quitByKey: Bool {
        get { withLock { $0.quitByKey } }
        set { withLock { $0.quitByKey = newValue } }
    }

    /// Why the listing stopped before its end, said once the table is put away.
    var listingFailure: ListResult? {
        get { withLock { $0.listingFailure } }
        set { withLock { $0.listingFailure = newValue } }
    }

    /// Writes the events (or redraws the table with `records`); false once the output is closed.
    func show(_ events: [WatchEvent], records: [JSONValue]) -> Bool {
        withLock { state in
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
    func status(_ text: String) {
        redraw { table in
            table.setStatus(text)
            return true
        }
    }

    /// Redraws the table once a changed row's mark has expired.
    func tick() {
        redraw { table in table.markExpired }
    }

    private func redraw(_ change: (inout LiveTable) -> Bool) {
        withLock { state in
            guard case .table(var table) = state.sink, !state.closed, change(&table) else { return }
            table.draw(state.records, keyFields: keyFields)
            state.sink = .table(table)
        }
    }

    func finish() {
        withLock { state in
            guard !state.closed else { return }
            state.closed = true
            switch state.sink {
            case .lines(var output): output.finish()
            case .table(let table): table.end()
            }
        }
    }
}
