/// Reads the records of a model with conflict detection that changed since a time, through its `sync<Plural>`
/// query (soft-deleted ones included), page by page to the end; then reports the first page's `startedAt`, from
/// which the next sync reads what changed after this one began.
///
/// Ends `.success` having read every page; else the listing's failure (a closed output included: the sync
/// stopped before its end), after ``OperationEvent/syncIncomplete``.
public struct SyncOperation: Sendable {
    /// The model read.
    public let model: String
    /// The page requests.
    public let requests: ListRequests

    /// Builds the page requests of the records changed since `lastSync` (milliseconds; nil: every record).
    public init(_ model: String, filter: FilterInput = .none, since lastSync: Int?, builder: RequestBuilder) throws(RequestBuildError) {
        self.model = model
        requests = try builder.syncPages(model, filter: filter, lastSync: lastSync)
    }

    /// The first request the sync sends.
    public var firstPage: GraphQLRequest { requests.page(limit: Defaults.pageSize, nextToken: nil) }

    /// Runs the sync through `context`'s client, reporting records and how it ended to `events`.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        var pager = ListPager(
            client: context.client, connectionPath: [requests.rootField],
            makeRequest: { [requests] limit, token in requests.page(limit: limit, nextToken: token) })
        // The first page's startedAt: what changes after the sync began, later pages' included, are read again next time.
        let started = StartedAt()
        pager.observeConnection = { connection in started.take(connection["startedAt"]) }
        let result = pager.run { items in
            guard events(.records(items)) else { throw OutputGone() }
        }
        _ = events(.recordsEnded(complete: true))
        switch result.stop {
        case .endOfList:
            if let value = started.value { _ = events(.syncedUntil(value)) }
            return .success
        case .graphQLErrors(let errors), .partial(let errors): _ = events(.graphQLErrors(errors))
        case .failed(let error): _ = events(.requestFailed(error))
        case .cancelled: _ = events(.interrupted(delivered: result.delivered))
        case .limitReached, .consumerFailed: break
        }
        _ = events(.syncIncomplete)
        return result.kind
    }
}

/// The first `startedAt` a sync's pages carried.
private final class StartedAt {
    private(set) var value: String?

    func take(_ field: JSONValue?) {
        guard value == nil, case .number(let number)? = field else { return }
        value = number.text
    }
}
