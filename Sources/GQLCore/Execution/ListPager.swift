/// Fetches a list page after page, following `nextToken`, and hands each page's items to a consumer as they
/// arrive, so memory stays constant however long the list is.
///
/// Rules:
/// - follows `nextToken` to the end, through empty pages that still carry a token (AppSync filters after `limit`);
/// - with a total ``limit``, each request asks for `min(pageSize, items still wanted)`, so a page never holds more
///   than is wanted and is never cut in the middle (unless the server ignores `limit`; see ``ListResult/resumeSkip``);
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
    /// The token to start from (`--next-token`), or nil for the beginning.
    public var startToken: String?
    /// Builds the request for one page from its `limit` and `nextToken` variables.
    public var makeRequest: (_ limit: Int, _ nextToken: String?) -> GraphQLRequest

    /// The default page size.
    public static let defaultPageSize = 1000

    /// Makes a value from its parts.
    public init(
        client: GraphQLClient, connectionPath: [String], pageSize: Int = ListPager.defaultPageSize, limit: Int? = nil,
        startToken: String? = nil, makeRequest: @escaping (_ limit: Int, _ nextToken: String?) -> GraphQLRequest
    ) {
        self.client = client
        self.connectionPath = connectionPath
        self.pageSize = max(1, pageSize)
        self.limit = limit.map { max(0, $0) }
        self.startToken = startToken
        self.makeRequest = makeRequest
    }

    /// Runs the listing, calling `consume` once per non-empty page with that page's items.
    ///
    /// If `consume` throws (say, stdout is closed), the listing stops with ``ListStop/consumerFailed(_:)`` and
    /// resumes at that page, since it may have been only partly written.
    public func run(_ consume: (_ items: [JSONValue]) throws -> Void) -> ListResult {
        var requestToken = startToken
        var seenTokens: Set<String> = startToken.map { [$0] } ?? []
        var delivered = 0
        var pages = 0

        func result(_ stop: ListStop, _ resume: ResumePoint, skip: Int = 0) -> ListResult {
            ListResult(stop: stop, resume: resume, resumeSkip: skip, delivered: delivered, pages: pages)
        }
        /// Resume at the page `token` fetches; nil is the first page.
        func resumeAt(_ token: String?) -> ResumePoint { token.map { .token($0) } ?? .start }

        while true {
            let remaining = limit.map { $0 - delivered }
            if let remaining, remaining <= 0 { return result(.limitReached, resumeAt(requestToken)) }
            if client.cancellation?.isCancelled == true { return result(.cancelled, resumeAt(requestToken)) }

            let request = makeRequest(min(pageSize, remaining ?? pageSize), requestToken)
            let response: GraphQLResponse
            do {
                response = try client.execute(request)
            } catch .cancelled, .transport(.cancelled, _) {
                return result(.cancelled, resumeAt(requestToken))
            } catch {
                return result(.failed(error), resumeAt(requestToken))
            }
            pages += 1

            let page: Page
            switch decodePage(response) {
            case .page(let decoded): page = decoded
            case .stop(let stop): return result(stop, resumeAt(requestToken))
            }
            client.trace?(.page(page: pages, items: page.items.count, nextToken: page.nextToken != nil))

            // Deliver, cutting only if the server sent more than the request's limit asked for.
            var items = page.items
            let cut = remaining.map { items.count > $0 } ?? false
            if cut, let remaining { items = Array(items.prefix(remaining)) }
            if !items.isEmpty {
                do {
                    try consume(items)
                } catch {
                    return result(.consumerFailed(error), resumeAt(requestToken))
                }
            }
            delivered += items.count
            if cut { return result(.limitReached, resumeAt(requestToken), skip: items.count) }

            let afterPage: ResumePoint = page.nextToken.map { .token($0) } ?? .complete
            if !response.errors.isEmpty { return result(.partial(response.errors), afterPage) }
            guard let nextToken = page.nextToken else { return result(.endOfList, .complete) }
            guard seenTokens.insert(nextToken).inserted else {
                return result(.failed(.invalidResponse(.repeatedToken(nextToken))), .unavailable)
            }
            requestToken = nextToken
        }
    }

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
        switch object["nextToken"] {
        case nil, .null?: return .page(Page(items: items, nextToken: nil))
        case .string(let token)?: return .page(Page(items: items, nextToken: token.isEmpty ? nil : token))
        case let other?:
            return .stop(.failed(.invalidResponse(.malformedPage("\(where_).nextToken is \(other.kindDescription); expected a string or null"))))
        }
    }
}

/// Where a stopped listing can pick up.
public enum ResumePoint: Sendable, Equatable {
    /// Nothing is left: the listing reached its end.
    case complete
    /// Run again with this `--next-token`.
    case token(String)
    /// Run again from the beginning (the first page was not fully delivered).
    case start
    /// The server's tokens cannot be trusted (one repeated); there is no safe place to resume.
    case unavailable
}

/// Why a listing stopped.
public enum ListStop {
    /// The last page (no `nextToken`) was delivered.
    case endOfList
    /// `--limit` items were delivered.
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
public struct ListResult {
    /// Why it stopped.
    public var stop: ListStop
    /// Where to pick up; ``ResumePoint/complete`` when nothing is left.
    public var resume: ResumePoint
    /// How many items of the page at ``resume`` were already delivered (only when the server returned more items
    /// than the request's `limit`, so the page had to be cut); usually 0.
    public var resumeSkip: Int
    /// Items handed to the consumer.
    public var delivered: Int
    /// Pages received.
    public var pages: Int

    /// The token to print for resuming (`--next-token`), if there is one.
    public var resumeToken: String? {
        if case .token(let token) = resume { return token }
        return nil
    }

    /// 0 for a full or `--limit`ed listing, 1 GraphQL errors (or a consumer failure), 3 partial,
    /// 5/6 for HTTP/network failures, 130 when interrupted.
    public var exitStatus: ExitStatus {
        switch stop {
        case .endOfList, .limitReached: return .success
        case .cancelled: return .interrupted
        case .graphQLErrors, .consumerFailed: return .graphQLErrors
        case .partial: return .partial
        case .failed(let error): return error.exitStatus
        }
    }
}
