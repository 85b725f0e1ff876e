/// Fetches a list page after page, following `nextToken`, and hands each page's items to a consumer as they
/// arrive, so memory stays constant however long the list is.
///
/// Rules:
/// - follows `nextToken` to the end, through empty pages that still carry a token (AppSync filters after `limit`);
/// - every request asks for ``pageSize`` items, with or without a total ``limit``: AppSync reads `limit` items
///   and then filters them, so asking for fewer would only mean more requests for a selective filter. A listing
///   with a limit therefore sends the same requests as one without, up to the page where the limit is reached;
///   that page is cut, and ``ListResult/resume`` points inside it (``ListPosition/skip``);
/// - a `nextToken` seen before stops the listing with an error;
/// - GraphQL errors without items stop it; items with errors are delivered, then it stops as partial;
/// - cancellation is checked between pages (and ends the in-flight request through the client).
///
/// When it stops early, ``ListResult/resume`` says where to pick up without losing or repeating items.
public struct ListPager {
    /// Sends the requests (with its retries, cancellation and trace).
    public var client: GraphQLClient
    /// Where the connection (`{items, nextToken}`) sits in `data`, e.g. `["listPosts"]`.
    public var connectionPath: [String]
    /// Items asked for per request.
    public var pageSize: Int
    /// The most items to deliver in total (`--limit`), or nil for all.
    public var limit: Int?
    /// Where to start (`--next-token`): the first page asked for, its page size and the items of it to skip.
    public var start: ListPosition
    /// Pages in a row with no items (but a `nextToken`) after which the listing stops, resumable.
    public var maxEmptyPagesInARow = Defaults.maxEmptyPagesInARow
    /// Builds the request for one page from its `limit` and `nextToken` variables.
    public var makeRequest: (_ limit: Int, _ nextToken: String?) -> GraphQLRequest
    /// Which items count as the listing's (nil: all): the others (soft-deleted records) are dropped before the
    /// limit, the resume position and the consumer see the page, so paging stays exact whatever they hold.
    public var keep: ((JSONValue) -> Bool)?
    /// Whether a page holds exactly as many items as asked for, as a listing without a filter does (DynamoDB applies
    /// `limit` before a filter): then a listing with a ``limit`` asks for no more than it still needs, as Amplify's
    /// `limit: 10` does, instead of whole pages of ``pageSize``.
    public var pagesAreExact = false
    /// Shown each page's connection object (its `items`, `nextToken` and any other field, such as a sync
    /// query's `startedAt`) as it arrives.
    public var observeConnection: ((JSONObject) -> Void)?

    /// Makes a value from its parts; `start` defaults to the first page (or `startToken`'s page) with `pageSize`.
    public init(
        client: GraphQLClient, connectionPath: [String], pageSize: Int = Defaults.pageSize, limit: Int? = nil,
        startToken: String? = nil, start: ListPosition? = nil,
        makeRequest: @escaping (_ limit: Int, _ nextToken: String?) -> GraphQLRequest
    ) {
        self.client = client
        self.connectionPath = connectionPath
        self.pageSize = max(1, pageSize)
        self.limit = limit.map { max(0, $0) }
        self.start = start ?? ListPosition(token: startToken, pageSize: max(1, pageSize))
        self.makeRequest = makeRequest
    }

    /// Runs the listing, calling `consume` once per non-empty page with that page's items.
    ///
    /// If `consume` throws (say, stdout is closed), the listing stops with ``ListStop/consumerFailed(_:)`` and
    /// resumes at that page, since it may have been only partly written.
    public func run(_ consume: (_ items: [JSONValue]) throws -> Void) -> ListResult {
        var position = start
        var seenTokens = TokenDigests()
        if let token = start.token { _ = seenTokens.insert(token) }
        var emptyPagesInARow = 0
        /// The first item that was neither an object nor null (a null goes with an error on its path): such items
        /// are left out, and the listing ends as failed.
        var notAnObject: InvalidResponseError?
        var delivered = 0
        var pages = 0

        func result(_ stop: ListStop, _ resume: ResumePoint) -> ListResult {
            ListResult(stop: stop, resume: resume, delivered: delivered, pages: pages)
        }
        /// Resume at `position`: a plain token at a page boundary, the start, or inside a page.
        func resumeAt(_ position: ListPosition) -> ResumePoint {
            if position.skip > 0 { return .withinPage(position) }
            return position.token.map { .token($0) } ?? .start
        }

        while true {
            if let limit, delivered >= limit { return result(.limitReached, resumeAt(position)) }
            if client.cancellation?.isCancelled == true { return result(.cancelled, resumeAt(position)) }

            // Inside a page (a resumed position), the page is read again as it was; otherwise, with exact pages, only
            // what the limit still needs is asked for.
            let asked = pagesAreExact && keep == nil && position.skip == 0
                ? min(position.pageSize, max(1, (limit ?? Int.max) - delivered)) : position.pageSize
            let request = makeRequest(asked, position.token)
            let response: GraphQLResponse
            do {
                response = try client.execute(request)
            } catch .cancelled, .transport(.cancelled, _) {
                return result(.cancelled, resumeAt(position))
            } catch {
                return result(.failed(error), resumeAt(position))
            }
            pages += 1

            let page: Page
            switch decodePage(response) {
            case .page(let decoded): page = decoded
            case .stop(let stop): return result(stop, resumeAt(position))
            }
            client.trace?(.page(page: pages, items: page.items.count, nextToken: page.nextToken != nil))
            client.progress?(.page(items: page.items.count))
            if notAnObject == nil, let index = page.items.firstIndex(where: { !Self.isRecordOrNull($0) }) {
                let path = (["data"] + connectionPath + ["items[\(index)]"]).joined(separator: ".")
                notAnObject = .notAsPromised("\(path) is \(page.items[index].kindDescription); expected an object (items that are not are left out)")
            }

            // Drop what an earlier run delivered of this page, and cut it where the limit is reached.
            let kept = keep.map { page.items.filter($0) } ?? page.items
            let skipped = min(position.skip, kept.count)
            var items = Array(kept.dropFirst(skipped)).filter(Self.isRecordOrNull)
            let remaining = limit.map { $0 - delivered }
            let cut = remaining.map { items.count > $0 } ?? false
            if cut, let remaining { items = Array(items.prefix(remaining)) }
            if !items.isEmpty {
                do {
                    try consume(items)
                } catch let cut as ListPageCut {
                    // The consumer kept only the first records of the page (a size budget): resume after them.
                    let kept = min(max(0, cut.kept), items.count)
                    delivered += kept
                    var inside = position
                    inside.skip = skipped + kept
                    return result(.limitReached, resumeAt(inside))
                } catch {
                    return result(.consumerFailed(error), resumeAt(position))
                }
            }
            delivered += items.count
            if cut {
                var inside = position
                inside.skip = skipped + items.count
                return result(.limitReached, resumeAt(inside))
            }

            let afterPage: ResumePoint = page.nextToken.map { .token($0) } ?? .complete
            if !response.errors.isEmpty { return result(.partial(response.errors), afterPage) }
            guard let nextToken = page.nextToken else {
                return result(notAnObject.map { .failed(.invalidResponse($0)) } ?? .endOfList, .complete)
            }
            guard seenTokens.insert(nextToken) else {
                return result(.failed(.invalidResponse(.repeatedToken(nextToken))), .unavailable)
            }
            emptyPagesInARow = page.items.isEmpty ? emptyPagesInARow + 1 : 0
            if emptyPagesInARow >= maxEmptyPagesInARow {
                // The next page may still hold items (a filter scans a big table), so the listing can resume there.
                return result(.failed(.invalidResponse(.endlessEmptyPages(emptyPagesInARow))), .token(nextToken))
            }
            position = ListPosition(token: nextToken, pageSize: pageSize)
        }
    }

    /// The tokens seen, as 16-byte digests: memory per page stays fixed however long the server's tokens grow.
    /// The digest is two 64-bit SipHash values under the process's random seed, so a server cannot aim for a
    /// collision, and an accidental one is about as likely as 2⁻⁶⁴ per pair of pages.
    struct TokenDigests {
        private var seen: Set<Digest> = []
        private struct Digest: Hashable { let first: Int, second: Int }

        /// False when `token` was seen before.
        mutating func insert(_ token: String) -> Bool {
            var first = Hasher(), second = Hasher()
            first.combine(0 as UInt8)
            second.combine(1 as UInt8)
            first.combine(token)
            second.combine(token)
            return seen.insert(Digest(first: first.finalize(), second: second.finalize())).inserted
        }

        var count: Int { seen.count }
    }

    private static func isRecordOrNull(_ item: JSONValue) -> Bool { item.isNull || item.objectValue != nil }

    private struct Page {
        var items: [JSONValue]
        var nextToken: String?
    }

    private enum PageDecoding {
        case page(Page)
        case stop(ListStop)
    }

    /// The page's items and token, or why the listing must stop here.
    private func decodePage(_ response: GraphQLResponse) -> PageDecoding {
        let where_ = (["data"] + connectionPath).joined(separator: ".")
        let connection: JSONValue
        do {
            connection = try response.value(at: connectionPath)
        } catch {
            if !response.errors.isEmpty { return .stop(.graphQLErrors(response.errors)) }
            return .stop(.failed(.invalidResponse(.missingResult(error))))
        }
        guard case .object(let object) = connection else {
            if !response.errors.isEmpty { return .stop(.graphQLErrors(response.errors)) }
            return .stop(.failed(.invalidResponse(.malformedPage("\(where_) is \(connection.kindDescription); expected an object with 'items'"))))
        }
        let items: [JSONValue]
        switch object["items"] {
        case .array(let list)?: items = list
        case .null? where !response.errors.isEmpty: return .stop(.graphQLErrors(response.errors))
        case let other?:
            return .stop(.failed(.invalidResponse(.malformedPage("\(where_).items is \(other.kindDescription); expected a list"))))
        case nil:
            return .stop(.failed(.invalidResponse(.malformedPage("\(where_) has no 'items'; select items { … } nextToken"))))
        }
        observeConnection?(object)
        switch object["nextToken"] {
        case nil, .null?: return .page(Page(items: items, nextToken: nil))
        case .string(let token)?: return .page(Page(items: items, nextToken: token.isEmpty ? nil : token))
        case let other?:
            return .stop(.failed(.invalidResponse(.malformedPage("\(where_).nextToken is \(other.kindDescription); expected a string or null"))))
        }
    }
}

/// Thrown by a ``ListPager`` consumer that keeps only the first `kept` items of the page it was handed (say,
/// to stay under a size budget): the listing stops as if a limit were reached, and resumes right after them.
public struct ListPageCut: Error, Sendable, Equatable {
    /// How many of the page's items the consumer kept.
    public var kept: Int

    public init(kept: Int) { self.kept = kept }
}

/// Where a stopped listing can pick up.
public enum ResumePoint: Sendable, Equatable {
    /// Nothing is left: the listing reached its end.
    case complete
    /// Run again with this `--next-token`.
    case token(String)
    /// Run again from the beginning (nothing of the first page was delivered).
    case start
    /// Run again from inside a page: its token (nil for the first page), page size and the items delivered of it
    /// (printed as a ``ResumeToken``).
    case withinPage(ListPosition)
    /// The server's tokens cannot be trusted (one repeated); there is no safe place to resume.
    case unavailable
}

/// Why a listing stopped.
public enum ListStop: Sendable {
    /// The last page (no `nextToken`) was delivered.
    case endOfList
    /// `--limit` items were delivered, or the consumer kept only part of a page (``ListPageCut``).
    case limitReached
    /// The user interrupted it.
    case cancelled
    /// A page came back with errors and no items.
    case graphQLErrors([GraphQLError])
    /// A page came back with items and errors; its items were delivered.
    case partial([GraphQLError])
    /// A request failed (transport, HTTP status, invalid or malformed response, repeated token).
    case failed(ExecutionError)
    /// The consumer threw this error.
    case consumerFailed(any Error)
}

/// The end of a listing: why it stopped, where to resume, and how much it delivered.
public struct ListResult: Sendable {
    /// Why it stopped.
    public var stop: ListStop
    /// Where to pick up; ``ResumePoint/complete`` when nothing is left.
    public var resume: ResumePoint
    /// Items handed to the consumer.
    public var delivered: Int
    /// Pages received.
    public var pages: Int

    /// The token to print for resuming (`--next-token`) a listing whose ``ListRequests/listingKey`` is `listing`,
    /// if there is one.
    public func resumeToken(listing: String) -> String? {
        switch resume {
        case .token(let token): return token
        case .withinPage(let position): return ResumeToken.text(for: position, listing: listing)
        case .complete, .start, .unavailable: return nil
        }
    }

    /// Success for a full or limited listing, GraphQL errors (or a consumer failure), partial,
    /// the request's failure, or cancelled.
    public var kind: ResultKind {
        switch stop {
        case .endOfList, .limitReached: return .success
        case .cancelled: return .cancelled
        case .graphQLErrors, .consumerFailed: return .graphQLErrors
        case .partial: return .partial
        case .failed(let error): return error.kind
        }
    }
}
