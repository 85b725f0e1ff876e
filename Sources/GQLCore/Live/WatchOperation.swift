import Synchronization

/// What a watched listing reports, in order, besides the records' changes.
public enum WatchReport {
    /// Records listed or changed: the events in order, and every record after them (in the order first listed or
    /// created). Never empty.
    case changes([WatchEvent], records: [JSONValue])
    /// Every subscription was acknowledged (their names, in order); the first listing starts.
    case subscribed([String])
    /// Listed again after a lost connection: that made `changes` changes, reported just before.
    case relistedAfterReconnect(changes: Int)
    /// A poll's listing failed after the first one succeeded; it is tried again after the interval.
    case pollFailed
    /// The listing stopped before its end, which ends the watch: its result.
    case listingFailed(ListResult)
    /// What the subscriptions said besides acknowledgements and events: a lost connection, an event's errors, the
    /// ending.
    case live(LiveEvent)
}

/// A listing kept live, as Amplify's `observeQuery` keeps it (``ObservedList`` holds the replay rules): through the
/// model's create, update and delete subscriptions (opened first; the listing is paged once they are acknowledged,
/// and read again after a lost connection), or by listing again every few seconds.
///
/// Both run until the reports' receiver returns false for changes, the time allowed runs out, cancellation, or a
/// failure. Reports are made one at a time (from the subscriber's thread or the listing's), never at once.
public struct WatchOperation: Sendable {
    /// The model watched.
    public let model: String
    /// The listing's requests, page by page.
    public let requests: ListRequests
    /// The records asked for on each page of a listing.
    public let pageSize: Int
    /// The primary-key fields that identify a record.
    public let keyFields: [String]
    /// How long to watch (nil: until stopped).
    public var duration: Double?

    /// A watch of `model`'s listing by `requests`, `pageSize` records a page, records told apart by `keyFields`.
    public init(model: String, requests: ListRequests, pageSize: Int, keyFields: [String]) {
        self.model = model
        self.requests = requests
        self.pageSize = pageSize
        self.keyFields = keyFields
    }

    /// Watches through `subscriptions` (see ``SubscribeOperation/watching(_:conditions:includes:builder:)``) over
    /// `realtime`, listing through `context`'s client; ends with the subscriptions' result.
    public func run(
        _ subscriptions: SubscribeOperation, in context: APIContext, realtime: RealtimeContext,
        report: @escaping (WatchReport) -> Bool
    ) -> ResultKind {
        var realtime = realtime
        // A failed first listing ends the subscriptions through a flag of the watch's own, which follows the caller's:
        // the caller's flag is never cancelled here.
        let cancellation = CancellationFlag()
        let following = realtime.cancellation.map { caller in (caller, caller.onCancel { cancellation.cancel() }) }
        defer { following.map { caller, handler in caller.removeHandler(handler) } }
        realtime.cancellation = cancellation
        let shared = WatchState(list: ObservedList(keyFields: keyFields), report: report)
        let listing = Listing(client: context.client, requests: requests, pageSize: pageSize)
        let ready = CancellationFlag()
        var kind = ResultKind.success
        WorkerThreads.run(count: 1, { _ in
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
                guard let items = listing.collect().items else { continue }
                shared.withLock { $0.emit($0.list.relisted(items)) }
            }
        }, meanwhile: {
            var operation = subscriptions
            operation.duration = duration
            var acknowledged: Set<String> = []
            kind = operation.run(in: realtime) { event in
                switch event {
                case .subscribed(let name):
                    acknowledged.insert(name)
                    if acknowledged.count == subscriptions.subscriptions.count && !ready.isCancelled {
                        shared.withLock { $0.say(.subscribed(subscriptions.subscriptions.map(\.name))) }
                        ready.cancel()
                    }
                case .result(let name, let value, _):
                    guard let change = subscriptions.changes[name], case .object = value else { return true }
                    return shared.withLock { state in
                        if let event = state.list.receive(change, value) { state.emit([event]) }
                        return !state.stopped
                    }
                case .resubscribed:
                    shared.withLock { $0.say(.live(event)) }
                    guard shared.withLock({ $0.relistHere() }), let items = listing.collect().items else { return true }
                    shared.withLock { state in
                        let events = state.list.relisted(items)
                        state.emit(events)
                        state.say(.relistedAfterReconnect(changes: events.count))
                    }
                default:
                    shared.withLock { $0.say(.live(event)) }
                }
                return true
            }
            shared.withLock { $0.subscriberEnded = true }
            ready.cancel()
        })
        return shared.withLock { state in
            guard let failure = state.listingFailure else { return kind }
            state.say(.listingFailed(failure))
            return failure.kind
        }
    }

    /// Watches by listing through `context`'s client every `seconds`, reporting the differences; the first listing
    /// ends with `synced`. Ends `.success` when the time allowed ran out (or the receiver stopped), `.cancelled`, or
    /// with the first listing's failure (later failures are reported and tried again).
    public func poll(every seconds: Double, in context: APIContext, cancellation: CancellationFlag, report: @escaping (WatchReport) -> Bool)
        -> ResultKind
    {
        let shared = WatchState(list: ObservedList(keyFields: keyFields), report: report)
        let listing = Listing(client: context.client, requests: requests, pageSize: pageSize)
        let end = duration.map { MonotonicTime.seconds() + $0 }
        var synced = false
        while true {
            let (items, result) = listing.collect()
            if let items {
                shared.withLock { state in
                    if synced {
                        state.emit(state.list.relisted(items))
                    } else {
                        state.emit(state.list.listed(items))
                        state.emit(state.list.finishListing())
                    }
                }
                synced = true
            } else if !synced || cancellation.isCancelled {
                shared.withLock { $0.say(.listingFailed(result)) }
                return result.kind
            } else {
                shared.withLock { $0.say(.pollFailed) }
            }
            if shared.withLock({ $0.stopped }) { return .success }
            let remaining = end.map { $0 - MonotonicTime.seconds() } ?? seconds
            if remaining <= 0 { return .success }
            if cancellation.wait(seconds: min(seconds, remaining)) { return .cancelled }
            if let end, MonotonicTime.seconds() >= end { return .success }
        }
    }
}

extension ListResult {
    /// Whether every page was read.
    public var isComplete: Bool {
        if case .endOfList = stop { return true }
        return false
    }
}

/// One listing read to its end, page by page.
private struct Listing: Sendable {
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

/// What the subscriber's thread and the listing's thread share, behind a lock.
private final class WatchState: @unchecked Sendable {
    struct Fields {
        var list: ObservedList
        let report: (WatchReport) -> Bool
        /// The receiver wants no more changes.
        var stopped = false
        var subscriberEnded = false
        var listingFailure: ListResult?
        /// A lost connection asked for the listing to be read again while the listing thread still runs.
        var relistWanted = false
        var listingThreadDone = false

        mutating func emit(_ events: [WatchEvent]) {
            guard !stopped, !events.isEmpty else { return }
            if !report(.changes(events, records: list.records)) { stopped = true }
        }

        /// Reports something other than changes (always said, whether or not changes are still wanted).
        func say(_ report: WatchReport) { _ = self.report(report) }

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

    private let lock = Mutex(())
    private var fields: Fields

    init(list: ObservedList, report: @escaping (WatchReport) -> Bool) {
        fields = Fields(list: list, report: report)
    }

    func withLock<T>(_ body: (inout Fields) -> T) -> T {
        lock.withLock { _ in body(&fields) }
    }
}
