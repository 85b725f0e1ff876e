/// Lists a model's records page by page (a whole listing, a query on a secondary index, or a count), following
/// `nextToken` to the end or to a limit, and each record's included has-many lists to their end, through one
/// client.
///
/// Records are reported a page at a time, so memory stays flat however long the list. A listing that stops early
/// reports why, then where to resume (``OperationEvent/resumePoint(_:)``) without losing or repeating a record.
public struct ListOperation: Sendable {
    /// The model listed.
    public let model: String
    /// The page requests (and the listing's identity, which resume points carry).
    public let requests: ListRequests
    /// The included associations, for following their lists.
    public let include: IncludeTree
    /// The selection of each record, which follow-up pages make too.
    public let fields: FieldSelection
    /// Whether only the number of records is reported (each page selects the key fields alone).
    public let counts: Bool
    /// Records asked for per request.
    public var pageSize = Defaults.pageSize
    /// The page size of an included list's further pages.
    public var includedPageSize = Defaults.includedPageSize
    /// The most records to report, or nil for all.
    public var limit: Int?
    /// Whether included has-many lists are paged to their end (false: their first page only).
    public var followIncludedLists = true
    /// Whether soft-deleted records are listed (and counted).
    public var includeDeleted = false
    /// Whether the envelope of the first page is reported as the server sent it, instead of the records.
    public var reportsEnvelope = false
    /// Where the listing starts: the first page, or a resume point (see ``resume(at:)``).
    public private(set) var start = ListPosition(token: nil, pageSize: Defaults.pageSize)
    /// The resume point given, which is never handed back when the server refuses it.
    public private(set) var resumedFrom: String?

    /// Checks the arguments against the schema and builds the page requests; throws what is wrong with them.
    /// With `index`, the listing is that secondary index's query, sorted in `sortDirection`.
    public init(
        _ model: String, filter: FilterInput = .none, index: String? = nil, sortDirection: SortDirection? = nil,
        includes: [String] = [], fields: FieldSelection = .all, counts: Bool = false, pageSize: Int = Defaults.pageSize,
        builder: RequestBuilder
    ) throws(RequestBuildError) {
        self.model = model
        self.counts = counts
        self.fields = counts ? .keysOnly : fields
        self.pageSize = pageSize
        start = ListPosition(token: nil, pageSize: pageSize)
        if let index {
            requests = try builder.indexPages(
                model, index: index, filter: filter, sortDirection: sortDirection, include: includes, fields: self.fields)
        } else {
            requests = try builder.listPages(model, filter: filter, include: includes, fields: self.fields)
        }
        include = try builder.includeTree(model, paths: includes)
    }

    /// Starts at a resume point an earlier run of the same listing reported.
    public mutating func resume(at token: String) throws(ResumeTokenError) {
        start = try ResumeToken.position(token, listing: requests.listingKey, pageSize: pageSize)
        resumedFrom = token
    }

    /// The first request the listing sends.
    public var firstPage: GraphQLRequest { requests.page(limit: start.pageSize, nextToken: start.token) }

    /// Runs the listing through `context`'s client, reporting records (or the count) and how it ended to `events`.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        if reportsEnvelope {
            return SingleRequest(request: firstPage, nullIsNotFound: false, expectsRecord: false, reportsEnvelope: true)
                .run(client: context.client, events: events, success: { _ in .success }, notFound: {})
        }
        var pager = ListPager(
            client: context.client, connectionPath: [requests.rootField], pageSize: pageSize, limit: limit, start: start,
            makeRequest: { [requests] limit, token in requests.page(limit: limit, nextToken: token) })
        // Without a filter the server returns as many records as asked for, so a limit asks for no more.
        pager.pagesAreExact = requests.filter == nil
        if context.schema.models[model]?.conflictDetection != nil, !includeDeleted {
            pager.keep = { !ConflictDetection.isDeleted($0) }  // soft-deleted records are not listed, nor counted
        }
        if counts { return count(pager, events: events) }
        let follow = followIncludedLists && !include.isEmpty
        let completer = ConnectionCompleter(builder: context.builder, pageLimit: includedPageSize, client: context.client)
        let result = pager.run { items in
            var records = items
            if follow {
                // Each record's included lists are paged to their end before the record is reported.
                do {
                    records = try completer.complete(.array(items), model: model, include: include, fields: fields).arrayValue ?? items
                } catch {
                    throw IncludedListFailure(error)
                }
            }
            guard events(.records(records)) else { throw OutputGone() }
        }
        let endedWell = switch result.stop {
        case .endOfList, .limitReached: true
        default: false
        }
        _ = events(.recordsEnded(complete: endedWell))
        return report(result, cancelled: context.client.cancellation?.isCancelled == true, events: events)
    }

    /// Pages to the end and reports the number of records, only when every page was read.
    private func count(_ pager: ListPager, events: OperationEventSink) -> ResultKind {
        let result = pager.run { _ in }
        guard case .endOfList = result.stop else {
            if case .cancelled = result.stop {
                _ = events(.countInterrupted(counted: result.delivered, pages: result.pages))
                return .cancelled
            }
            _ = events(.countIncomplete(counted: result.delivered))
            return report(result, cancelled: false, events: events)
        }
        _ = events(.count(result.delivered))
        return .success
    }

    /// Reports why the listing stopped and, when it stopped early, where to resume.
    private func report(_ result: ListResult, cancelled: Bool, events: OperationEventSink) -> ResultKind {
        var kind = result.kind
        switch result.stop {
        case .endOfList, .limitReached: break
        case .cancelled: _ = events(.interrupted(delivered: result.delivered))
        case .graphQLErrors(let errors), .partial(let errors): _ = events(.graphQLErrors(errors))
        case .failed(let error): _ = events(.requestFailed(error))
        case .consumerFailed(let error) where error is OutputGone:
            kind = .success  // the reader stopped reading (`| head`): not a failure
        case .consumerFailed where cancelled:
            // Cancelled while following a record's included lists: that page was not reported.
            _ = events(.interrupted(delivered: result.delivered))
            kind = .cancelled
        case .consumerFailed(let error):
            if let failure = error as? IncludedListFailure {
                _ = events(.includedListFailed(failure))
                kind = .partial
            }
        }
        switch result.resume {
        case .token, .withinPage:
            guard let token = result.resumeToken(listing: requests.listingKey) else { break }
            // Never hand back a token the server refused as if it were a place to resume.
            _ = events(token == resumedFrom && Self.refusedFirstPage(result) ? .resumePointRefused : .resumePoint(token))
        case .unavailable: _ = events(.noResumePoint)
        case .start, .complete: break
        }
        return kind
    }

    /// The server answered the first request with errors and nothing else.
    private static func refusedFirstPage(_ result: ListResult) -> Bool {
        guard result.pages == 1, result.delivered == 0, case .graphQLErrors = result.stop else { return false }
        return true
    }

}

/// The event sink could not take a page: the output is gone.
struct OutputGone: Error {}
