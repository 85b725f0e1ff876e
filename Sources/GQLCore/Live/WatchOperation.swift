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
/// failure. Reports are made one at a time, on the thread that runs the watch: nothing is shared between threads.
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

    /// Watches through `subscriptions` (see
    /// ``SubscribeOperation/watching(_:conditions:includes:builder:withFilterObject:)``) over `realtime`, listing
    /// through `context`'s client; ends with the subscriptions' result, or with the first listing's failure.
    ///
    /// Everything happens on this thread, which owns the records: the first listing is paged once every
    /// subscription is acknowledged, and read again after a lost connection, while the subscriptions' events wait
    /// on the connection (they are applied after it, as Amplify replays what came during the first listing). The
    /// connection is not read while a listing pages: a server that drops a reader that slow (or pings and wants an
    /// answer sooner) ends the connection, and the watch connects and lists again, losing nothing.
    public func run(
        _ subscriptions: SubscribeOperation, in context: APIContext, realtime: RealtimeContext,
        report: (WatchReport) -> Bool
    ) -> ResultKind {
        var reported = ReportedList(keyFields: keyFields)
        let listing = Listing(client: context.client, requests: requests, pageSize: pageSize)
        var operation = subscriptions
        operation.duration = duration
        var acknowledged: Set<String> = []
        var listingFailure: ListResult?
        let kind = operation.run(in: realtime) { event in
            switch event {
            case .subscribed(let name):
                acknowledged.insert(name)
                guard acknowledged.count == subscriptions.subscriptions.count, !reported.list.isSynced else { return true }
                _ = report(.subscribed(subscriptions.subscriptions.map(\.name)))
                let result = listing.run { items in reported.listed(items, to: report) }
                guard result.isComplete else {
                    // Ends the subscriptions through this handler, not through the caller's cancellation.
                    listingFailure = result
                    return false
                }
                reported.finishListing(to: report)
                return !reported.stopped
            case .result(let name, let value, _):
                guard let change = subscriptions.changes[name], case .object = value else { return true }
                return reported.receive(change, value, to: report)
            case .resubscribed:
                _ = report(.live(event))
                guard reported.list.isSynced, let items = listing.collect().items else { return true }
                _ = report(.relistedAfterReconnect(changes: reported.relisted(items, to: report)))
            default:
                _ = report(.live(event))
            }
            return true
        }
        guard let listingFailure else { return kind }
        _ = report(.listingFailed(listingFailure))
        return listingFailure.kind
    }

    /// Watches by listing through `context`'s client every `seconds`, reporting the differences; the first listing
    /// ends with `synced`. Ends `.success` when the time allowed ran out (or the receiver stopped), `.cancelled`, or
    /// with the first listing's failure (later failures are reported and tried again). `report` is called on this
    /// thread only.
    public func poll(every seconds: Double, in context: APIContext, cancellation: CancellationFlag, report: (WatchReport) -> Bool)
        -> ResultKind
    {
        var reported = ReportedList(keyFields: keyFields)
        let listing = Listing(client: context.client, requests: requests, pageSize: pageSize)
        let end = duration.map { MonotonicTime.seconds() + $0 }
        var synced = false
        while true {
            let (items, result) = listing.collect()
            if let items {
                if synced {
                    _ = reported.relisted(items, to: report)
                } else {
                    reported.listed(items, to: report)
                    reported.finishListing(to: report)
                }
                synced = true
            } else if !synced || cancellation.isCancelled {
                _ = report(.listingFailed(result))
                return result.kind
            } else {
                _ = report(.pollFailed)
            }
            if reported.stopped { return .success }
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

/// The records a watch reports, and whether the receiver still wants their changes.
private struct ReportedList: Sendable {
    var list: ObservedList
    /// The receiver wants no more changes.
    var stopped = false

    init(keyFields: [String]) {
        list = ObservedList(keyFields: keyFields)
    }

    /// Reports `events` with the records after them, unless the receiver stopped.
    mutating func emit(_ events: [WatchEvent], to report: (WatchReport) -> Bool) {
        guard !stopped, !events.isEmpty else { return }
        if !report(.changes(events, records: list.records)) { stopped = true }
    }

    /// A page of the first listing.
    mutating func listed(_ items: [JSONValue], to report: (WatchReport) -> Bool) {
        emit(list.listed(items), to: report)
    }

    /// The first listing's end: `synced` and the changes queued meanwhile.
    mutating func finishListing(to report: (WatchReport) -> Bool) {
        emit(list.finishListing(), to: report)
    }

    /// A subscription's change; whether the receiver still wants changes.
    mutating func receive(_ change: ChangeKind, _ record: JSONValue, to report: (WatchReport) -> Bool) -> Bool {
        if let event = list.receive(change, record) { emit([event], to: report) }
        return !stopped
    }

    /// A fresh listing's differences; how many there were.
    mutating func relisted(_ items: [JSONValue], to report: (WatchReport) -> Bool) -> Int {
        let events = list.relisted(items)
        emit(events, to: report)
        return events.count
    }
}
