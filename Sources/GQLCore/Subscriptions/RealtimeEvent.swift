/// One subscription to run over the real-time connection: its request and the name it is reported under
/// (the root field, e.g. `onCreatePost`).
public struct RealtimeSubscription: Sendable, Equatable {
    public var name: String
    public var request: GraphQLRequest

    public init(name: String, request: GraphQLRequest) {
        self.name = name
        self.request = request
    }

    /// A subscription for a request built from a document as it is (``RequestBuilder/raw(document:fileName:variables:operationName:decodePath:)``),
    /// reported under its operation's first root field (`onPostLiked`), or `subscription` if it has none.
    public init(request: GraphQLRequest) {
        let rootField = (try? ParsedDocument(parsing: request.query))
            .flatMap { try? $0.document.operation(named: request.operationName) }
            .flatMap { operation in
                operation.selectionSet.lazy.compactMap { selection -> String? in
                    if case .field(let field) = selection { return field.alias ?? field.name }
                    return nil
                }.first
            }
        self.init(name: rootField ?? "subscription", request: request)
    }
}

/// What happens while subscribed, in order.
public enum RealtimeEvent: Sendable, Equatable {
    /// The server acknowledged the subscription (`start_ack`).
    case subscribed(name: String)
    /// An event for the subscription.
    case data(name: String, response: GraphQLResponse)
    /// The connection broke; a new one is tried after `retryIn` seconds (`attempt` counts from 1).
    case connectionLost(reason: String, attempt: Int, retryIn: Double)
    /// Subscribed again after a lost connection: events between `missedFrom` and `missedTo` may have been missed.
    case resubscribed(missedFrom: Timestamp, missedTo: Timestamp)
}

/// How a subscription run ended without an error.
public enum RealtimeEnding: Sendable, Equatable {
    /// The event handler asked to stop (e.g. enough events).
    case stopped
    /// The time allowed ran out.
    case timedOut
    /// The cancellation flag was set (Ctrl-C).
    case cancelled
    /// The server completed every subscription on its own.
    case completed
}

/// Why subscribing failed. Messages never name a command-line flag.
public enum SubscriptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the connection (`connection_error`): auth or a bad request.
    case refused([RealtimeError])
    /// The server refused or ended a subscription (`error`); `name` is nil when the error had no id.
    case failed(name: String?, [RealtimeError])
    /// The WebSocket could not be made or broke.
    case connection(WebSocketError)
    /// No keep-alive within the connection timeout the server announced.
    case noKeepAlive(milliseconds: Int)
    /// The server broke the protocol.
    case protocolViolation(RealtimeProtocolError)
    /// Reconnecting failed `attempts` times in a row; `last` is the last failure.
    case gaveUp(attempts: Int, last: String)
    /// The server broke the WebSocket protocol `count` times over this run's connections (a server that fails
    /// after every subscribe would otherwise be reconnected to for ever); `last` is the last violation.
    case tooManyProtocolErrors(count: Int, last: String)

    /// What kind of failure it is: refused (the connection, or a subscription as unauthorized) or a broken protocol
    /// is an HTTP-level error, a subscription's other errors a GraphQL error, the rest the network's.
    public var kind: ResultKind {
        switch self {
        case .refused, .protocolViolation, .tooManyProtocolErrors: return .httpError
        case .failed(_, let errors) where errors.contains(where: \.isUnauthorized): return .httpError
        case .failed: return .graphQLErrors
        case .connection(.upgradeRefused), .connection(.badHandshake), .connection(.invalidURL), .connection(.invalidRequest):
            return .httpError
        case .connection(.cancelled): return .cancelled
        case .connection, .noKeepAlive, .gaveUp: return .network
        }
    }

    /// Whether the server refused the connection or a subscription as unauthorized (401 `UnauthorizedException`).
    public var isUnauthorized: Bool {
        switch self {
        case .refused(let errors), .failed(_, let errors): return errors.contains(where: \.isUnauthorized)
        default: return false
        }
    }

    /// Whether a new connection may help: the network, not the server's answer.
    var isRetryable: Bool {
        switch self {
        case .noKeepAlive: return true
        case .connection(let error):
            switch error {
            case .connectionFailed, .connectionLost, .timeout, .protocolViolation, .closed: return true
            case .upgradeRefused(let status, _, _): return status >= 500
            default: return false
            }
        default: return false
        }
    }

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .refused(let errors):
            return "the real-time server refused the connection: " + errors.map(\.description).joined(separator: "; ")
        case .failed(let name, let errors):
            let which = name.map { "subscription \($0) failed" } ?? "the real-time server reported an error"
            return "\(which): " + errors.map(\.description).joined(separator: "; ")
        case .connection(let error):
            return error.description
        case .noKeepAlive(let milliseconds):
            return "no keep-alive from the real-time server within \(milliseconds) ms; the connection is dead"
        case .protocolViolation(let error):
            return "real-time protocol error: \(error.description)"
        case .gaveUp(let attempts, let last):
            return "gave up reconnecting after \(attempts) failed attempts: \(last)"
        case .tooManyProtocolErrors(let count, let last):
            return "gave up after \(count) protocol errors from the real-time server: \(last)"
        }
    }
}
