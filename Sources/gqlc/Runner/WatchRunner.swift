import GQLCore
import Synchronization

/// `gqlc list --watch`: the listing kept live by the model's create, update and delete subscriptions, as Amplify's
/// observeQuery keeps it (``ObservedList`` holds the replay rules), or by listing again every few seconds.
extension ModelCommandRunner {
    mutating func watch(_ invocation: ListInvocation, mode: ListInvocation.Watch, requests: ListRequests, columns: [String]) -> ExitCode {
        var subscriptions: [RealtimeSubscription] = []
        var kinds: [String: ChangeKind] = [:]
        if case .subscriptions = mode {
            do throws(RunFailure) {
                (subscriptions, kinds) = try watchSubscriptions(invocation)
            } catch {
                return usage(error)
            }
        }
        if globals.dryRun {
            var status = execution.printDryRun(requests.page(limit: invocation.pageSize, nextToken: nil))
            for subscription in subscriptions where status == .success { status = execution.printDryRun(subscription.request) }
            return status
        }
        let client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return usage(error)
        }
        var globals = self.globals
        let onTable = !globals.outputGiven && session.console.outputIsTerminal
        if !globals.outputGiven { globals.output = onTable ? .table : .ndjson }
        let tableColumns: [String]
        do {
            tableColumns = onTable ? try recordColumns(invocation.model, fields: invocation.fields, format: .table) : columns
        } catch {
            return usage(error)
        }
        var printer = ResultPrinter(console: session.console, globals: globals, columns: tableColumns)
        if globals.decodeJSONFields { printer.decodingSchema = schema }
        let sink: WatchState.Sink = onTable
            ? .table(LiveTable(output: session.console.output, formatter: printer.records, model: invocation.model, sort: invocation.watchSort))
            : .lines(printer.beginList())
        let state = WatchState(list: ObservedList(keyFields: keyFields(of: invocation.model)), sink: sink)
        let listing = Listing(model: invocation.model, client: client, requests: requests, pageSize: invocation.pageSize)
        switch mode {
        case .polling(let seconds):
            return poll(listing, every: seconds, duration: invocation.watchDuration, state: state)
        case .subscriptions:
            return follow(subscriptions, kinds: kinds, listing: listing, duration: invocation.watchDuration, state: state)
        }
    }

    /// The model's three subscriptions with `--where` as their filter, refused with the reason when they cannot serve.
    private func watchSubscriptions(_ invocation: ListInvocation) throws(RunFailure) -> ([RealtimeSubscription], [String: ChangeKind]) {
        let refusal = "cannot watch \(invocation.model) through its subscriptions"
        let fallback = "\(ListCommand.interval.flagName) SECONDS watches it by listing again instead"
        if invocation.filter != nil {
            throw .usage("\(refusal): \(ListCommand.filter.flagName) has no subscription form; use \(ListCommand.whereOption.flagName), or \(fallback)")
        }
        var subscriptions: [RealtimeSubscription] = []
        var kinds: [String: ChangeKind] = [:]
        for event in SubscriptionEvent.allCases {
            do {
                let request = try builder.subscription(
                    invocation.model, event: event, filter: FilterInput(where: invocation.conditions), include: invocation.includes)
                let name = request.decodePath.first ?? event.rawValue
                subscriptions.append(RealtimeSubscription(name: name, request: request))
                kinds[name] = ChangeKind(event)
            } catch {
                if case .unknownModel = error { throw .request(error) }
                throw .usage("\(refusal): \(error.description); \(fallback)")
            }
        }
        return (subscriptions, kinds)
    }

    /// Subscribes, then lists on a second thread once every subscription is acknowledged; what arrives meanwhile
    /// is queued and replayed when the listing ends. After a lost connection the listing is read again.
    private func follow(
        _ subscriptions: [RealtimeSubscription], kinds: [String: ChangeKind], listing: Listing, duration: Double?,
        state: WatchState
    ) -> ExitCode {
        let shared = SharedWatch(state)
        let ready = CancellationFlag()
        let cancellation = session.cancellation
        let errorSink = session.console.error
        var stream = SubscriptionStream(
            session: session, diagnostics: diagnostics, schemaFile: execution.schemaFile, model: schema.models[listing.model],
            duration: duration, decodePath: { $0.request.decodePath })
        var status = ExitCode.success
        let keys = shared.withLock { $0.isTable } ? KeyReader() : nil
        let stopKeys = CancellationFlag()
        WorkerThreads.run(count: keys == nil ? 1 : 2, { worker in
            if worker == 1, let keys {
                keys.run(stop: stopKeys, onTick: { shared.withLock { $0.tick() } }, onQuit: {
                    shared.withLock { $0.quitByKey = true }
                    cancellation.cancel()
                })
                return
            }
            while !ready.wait(seconds: 60) {}
            guard !shared.withLock({ $0.subscriberEnded }) else { return }
            let result = listing.run { items in shared.withLock { $0.emit($0.list.listed(items)) } }
            guard result.isComplete else {
                shared.withLock { $0.listingFailure = result }
                cancellation.cancel()
                return
            }
            shared.withLock { $0.emit($0.list.finishListing()) }
            // Connections lost while the first listing paged: read it again now.
            while shared.withLock({ $0.takeRelist() }) {
                let again = listing.collect()
                guard let items = again.items else { continue }
                shared.withLock { $0.emit($0.list.relisted(items)) }
            }
        }, meanwhile: {
            var acknowledged: Set<String> = []
            status = stream.run(SubscribeOperation(subscriptions)) { event in
                switch event {
                case .subscribed(let name):
                    acknowledged.insert(name)
                    if acknowledged.count == subscriptions.count && !ready.isCancelled {
                        if keys == nil { errorSink.write("subscribed: \(subscriptions.map(\.name).joined(separator: ", "))\n") }
                        shared.withLock { $0.status("subscribed, listing…") }
                        ready.cancel()
                    }
                case .result(let name, let value, _):
                    guard let kind = kinds[name], case .object = value else { return true }
                    return shared.withLock { state in
                        if let event = state.list.receive(kind, value) { state.emit([event]) }
                        return !state.outputClosed
                    }
                case .resubscribed:
                    guard shared.withLock({ $0.relistHere() }) else { return true }
                    let again = listing.collect()
                    if let items = again.items {
                        let changed = shared.withLock { state in
                            let events = state.list.relisted(items)
                            state.emit(events)
                            return events.count
                        }
                        if keys == nil {
                            errorSink.write("gqlc: listed \(listing.model) again after the lost connection: \(changed) changes\n")
                        }
                        shared.withLock { $0.status("reconnected; listed again: \(changed) changes") }
                    }
                default:
                    break
                }
                return true
            }
            shared.withLock { $0.subscriberEnded = true }
            ready.cancel()
            stopKeys.cancel()
        })
        keys?.restore()
        return shared.withLock { state in
            state.finish()
            if let failure = state.listingFailure { return reportListingFailure(failure) }
            return state.quitByKey ? .success : status
        }
    }

    /// Lists every `seconds` and reports the differences; the first listing ends with `synced`.
    private func poll(_ listing: Listing, every seconds: Double, duration: Double?, state: WatchState) -> ExitCode {
        let shared = SharedWatch(state)
        guard shared.withLock({ $0.isTable }) else {
            diagnostics.error("watching \(listing.model) by listing it every \(SubscriptionStream.seconds(seconds)) s")
            return pollLoop(listing, every: seconds, duration: duration, shared: shared)
        }
        let keys = KeyReader()
        let stop = CancellationFlag()
        let cancellation = session.cancellation
        var status = ExitCode.success
        WorkerThreads.run(count: 1, { _ in
            keys.run(stop: stop, onTick: { shared.withLock { $0.tick() } }, onQuit: {
                shared.withLock { $0.quitByKey = true }
                cancellation.cancel()
            })
        }, meanwhile: {
            shared.withLock { $0.status("listing every \(SubscriptionStream.seconds(seconds)) s") }
            status = pollLoop(listing, every: seconds, duration: duration, shared: shared)
            stop.cancel()
        })
        keys.restore()
        return shared.withLock { state in
            state.finish()
            return state.quitByKey ? .success : status
        }
    }

    private func pollLoop(_ listing: Listing, every seconds: Double, duration: Double?, shared: SharedWatch) -> ExitCode {
        let end = duration.map { MonotonicTime.seconds() + $0 }
        var synced = false
        defer { shared.withLock { $0.finish() } }
        while true {
            let result = listing.collect()
            if let items = result.items {
                shared.withLock { state in
                    if synced {
                        state.emit(state.list.relisted(items))
                    } else {
                        state.emit(state.list.listed(items))
                        state.emit(state.list.finishListing())
                    }
                }
                synced = true
            } else if !synced || session.cancellation.isCancelled {
                return reportListingFailure(result.result)
            } else {
                diagnostics.error("listing \(listing.model) again failed; trying again in \(SubscriptionStream.seconds(seconds)) s")
            }
            if shared.withLock({ $0.outputClosed }) { return .success }
            let remaining = end.map { $0 - MonotonicTime.seconds() } ?? seconds
            if remaining <= 0 { return .success }
            if session.cancellation.wait(seconds: min(seconds, remaining)) { return .interrupted }
            if let end, MonotonicTime.seconds() >= end { return .success }
        }
    }

    private func reportListingFailure(_ result: ListResult) -> ExitCode {
        switch result.stop {
        case .endOfList, .limitReached: return .success
        case .cancelled, .consumerFailed: return .interrupted
        case .graphQLErrors(let errors), .partial(let errors): diagnostics.graphQLErrors(errors)
        case .failed(let error): diagnostics.error(error)
        }
        return result.exitStatus
    }
}

/// One listing read to its end, page by page.
private struct Listing: Sendable {
    let model: String
    let client: GraphQLClient
    let requests: ListRequests
    let pageSize: Int

    func run(_ consume: ([JSONValue]) -> Void) -> ListResult {
        let requests = self.requests
        let pager = ListPager(
            client: client, connectionPath: [requests.rootField], pageSize: pageSize,
            makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
        return pager.run { items in consume(items) }
    }

    /// Every record, or nil with the result that stopped the listing.
    func collect() -> (items: [JSONValue]?, result: ListResult) {
        var items: [JSONValue] = []
        let result = run { items += $0 }
        return (result.isComplete ? items : nil, result)
    }
}

/// What the subscriber's thread and the listing's thread share.
private struct WatchState {
    /// Where events go: JSON lines, or a live table on the terminal.
    enum Sink {
        case lines(ResultPrinter.ListStream)
        case table(LiveTable)
    }

    var list: ObservedList
    var sink: Sink
    var outputClosed = false
    /// `q` was pressed on the live table.
    var quitByKey = false
    var subscriberEnded = false
    var listingFailure: ListResult?
    /// A lost connection asked for the listing to be read again while the listing thread still runs.
    var relistWanted = false
    var listingThreadDone = false

    init(list: ObservedList, sink: Sink) {
        self.list = list
        self.sink = sink
        if case .table(let table) = sink { table.begin() }
    }

    var isTable: Bool {
        if case .table = sink { return true }
        return false
    }

    mutating func emit(_ events: [WatchEvent]) {
        guard !outputClosed, !events.isEmpty else { return }
        switch sink {
        case .lines(var output):
            if !output.write(events.map(\.envelope)) { outputClosed = true }
            sink = .lines(output)
        case .table(var table):
            table.note(events)
            // While the first listing pages, the table is drawn once a page, not once a record.
            table.draw(list.records, keyFields: list.keyFields)
            sink = .table(table)
        }
    }

    /// A new status on the table (the lines say nothing of it).
    mutating func status(_ text: String) {
        guard case .table(var table) = sink, !outputClosed else { return }
        table.setStatus(text)
        table.draw(list.records, keyFields: list.keyFields)
        sink = .table(table)
    }

    /// Redraws the table once a changed row's mark has expired.
    mutating func tick() {
        guard case .table(var table) = sink, !outputClosed, table.markExpired else { return }
        table.draw(list.records, keyFields: list.keyFields)
        sink = .table(table)
    }

    mutating func finish() {
        guard !outputClosed else { return }
        outputClosed = true
        switch sink {
        case .lines(var output): output.finish()
        case .table(let table): table.end()
        }
    }

    /// On the listing thread: whether to read the listing again; false marks the thread done.
    mutating func takeRelist() -> Bool {
        if relistWanted {
            relistWanted = false
            return true
        }
        listingThreadDone = true
        return false
    }

    /// On the subscriber's thread after a lost connection: true when it should list again itself (the listing
    /// thread is done), false when the listing thread will.
    mutating func relistHere() -> Bool {
        if listingThreadDone { return true }
        relistWanted = true
        return false
    }
}

/// The state behind a lock; its parts (the output, a listing's result) are used by one thread at a time.
private final class SharedWatch: @unchecked Sendable {
    private let lock = Mutex(())
    private var value: WatchState

    init(_ state: WatchState) { value = state }

    func withLock<T>(_ body: (inout WatchState) -> T) -> T {
        lock.withLock { _ in body(&value) }
    }
}

extension ListResult {
    /// Whether every page was read.
    var isComplete: Bool {
        if case .endOfList = stop { return true }
        return false
    }
}
