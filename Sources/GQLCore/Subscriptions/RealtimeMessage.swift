/// Which real-time protocol: AppSync GraphQL subscriptions, or an AppSync Events API's channels.
public enum RealtimeDialect: Sendable, Equatable {
    case graphQL, events

    /// The WebSocket subprotocol that names it.
    public var subprotocol: String { self == .events ? "aws-appsync-event-ws" : "graphql-ws" }
}

/// A message from an AppSync real-time server (`graphql-ws` as AppSync speaks it).
public enum RealtimeMessage: Sendable, Equatable {
    /// The connection is accepted; without a `ka` for `connectionTimeoutMs` it is dead (300000 when missing).
    case connectionAck(connectionTimeoutMs: Int)
    /// The connection is refused (auth, bad request).
    case connectionError([RealtimeError])
    /// A keep-alive.
    case keepAlive
    /// A subscription is running.
    case startAck(id: String)
    /// An event: `payload` is a GraphQL response (`data`, maybe `errors`).
    case data(id: String, payload: GraphQLResponse)
    /// A subscription (or, without an id, the connection) failed.
    case error(id: String?, [RealtimeError])
    /// A subscription ended, after a `stop`.
    case complete(id: String)
    /// An Events API publish was done: the message, with its `successful` and `failed` lists.
    case published(id: String, result: JSONValue)
    /// A message type gqlc does not know; ignored.
    case other(type: String)

    /// One line for traces: the type, the id and what matters, never a payload's data.
    public var summary: String {
        switch self {
        case .connectionAck(let milliseconds): return "connection_ack (connectionTimeoutMs \(milliseconds))"
        case .connectionError(let errors): return "connection_error: " + errors.map(\.description).joined(separator: "; ")
        case .keepAlive: return "ka"
        case .startAck(let id): return "start_ack \(id)"
        case .data(let id, let payload): return "data \(id)" + (payload.errors.isEmpty ? "" : " (\(payload.errors.count) errors)")
        case .error(let id, let errors):
            return "error\(id.map { " \($0)" } ?? ""): " + errors.map(\.description).joined(separator: "; ")
        case .complete(let id): return "complete \(id)"
        case .published(let id, _): return "publish_success \(id)"
        case .other(let type): return type
        }
    }

    /// The default `connectionTimeoutMs`.
    public static let defaultConnectionTimeoutMs = 300_000

    /// Parses one text message of `dialect`: the Events API's messages are read as their GraphQL counterparts
    /// (`subscribe_success` as `start_ack`, `subscribe_error` as `error`, `unsubscribe_success` as `complete`, and
    /// `data` with its `event` text as the payload's `data`).
    public static func parse(_ text: String, dialect: RealtimeDialect = .graphQL) throws(RealtimeProtocolError) -> RealtimeMessage {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw RealtimeProtocolError("a message from the server is not JSON: \(error.description)")
        }
        guard let object = json.objectValue, let type = object["type"]?.stringValue else {
            throw RealtimeProtocolError("a message from the server has no \"type\": \(preview(text))")
        }
        let id = object["id"]?.stringValue
        // The Events API puts errors and connectionTimeoutMs at the top level, GraphQL in `payload`.
        let payload: JSONValue? = object["payload"] ?? (dialect == .events ? json : nil)
        if dialect == .events {
            switch type {
            case "subscribe_success": return .startAck(id: id ?? "")
            case "subscribe_error", "publish_error": return .error(id: id, errors(in: payload))
            case "unsubscribe_success": return .complete(id: id ?? "")
            case "publish_success": return .published(id: id ?? "", result: json)
            case "data":
                guard let id, let event = object["event"]?.stringValue else {
                    throw RealtimeProtocolError("a data message has no \"id\" or \"event\" text: \(preview(text))")
                }
                do {
                    return .data(id: id, payload: GraphQLResponse(data: try JSONValue.parse(event)))
                } catch {
                    throw RealtimeProtocolError("the event for subscription \(id) is not JSON: \(error.description)")
                }
            default: break
            }
        }
        switch type {
        case "connection_ack":
            let timeout = payload?["connectionTimeoutMs"]?.numberText.flatMap { Int($0) }
            let given = timeout.flatMap { $0 > 0 ? $0 : nil } ?? defaultConnectionTimeoutMs
            return .connectionAck(connectionTimeoutMs: min(given, Defaults.maximumConnectionTimeoutMs))
        case "connection_error":
            return .connectionError(errors(in: payload))
        case "ka":
            return .keepAlive
        case "start_ack":
            return .startAck(id: id ?? "")
        case "data":
            guard let id else { throw RealtimeProtocolError("a data message has no \"id\": \(preview(text))") }
            do {
                return .data(id: id, payload: try GraphQLResponse(json: payload ?? .null))
            } catch {
                throw RealtimeProtocolError("the data message for subscription \(id) is not a GraphQL response: \(error.description)")
            }
        case "error":
            return .error(id: id, errors(in: payload))
        case "complete":
            return .complete(id: id ?? "")
        default:
            return .other(type: type)
        }
    }

    /// `payload.errors` as an array or, as AppSync has been seen sending, a single object; a payload without
    /// it (or without a payload) gives one error saying so.
    static func errors(in payload: JSONValue?) -> [RealtimeError] {
        let list: [JSONValue]
        switch payload?["errors"] {
        case .array(let items)?: list = items
        case .object(let object)?: list = [.object(object)]
        default: list = []
        }
        let errors = list.map { item in
            RealtimeError(
                errorType: item["errorType"]?.stringValue, message: item["message"]?.stringValue ?? item.description,
                errorCode: item["errorCode"]?.numberText.flatMap { Int($0) })
        }
        return errors.isEmpty ? [RealtimeError(errorType: nil, message: "the server gave no reason", errorCode: nil)] : errors
    }

    private static func preview(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}

/// One error from the real-time server.
public struct RealtimeError: Sendable, Equatable, CustomStringConvertible {
    /// AppSync's `errorType` (`UnauthorizedException`, `LimitExceededError`…).
    public var errorType: String?
    public var message: String
    /// AppSync's `errorCode` (401, 403, 400…), when given.
    public var errorCode: Int?

    public init(errorType: String?, message: String, errorCode: Int?) {
        self.errorType = errorType
        self.message = message
        self.errorCode = errorCode
    }

    /// Whether the server refused the caller's credentials (`UnauthorizedException`, or error code 401).
    public var isUnauthorized: Bool { errorType == "UnauthorizedException" || errorCode == 401 }

    /// `UnauthorizedException: You are not authorized… (401)`.
    public var description: String {
        var line = message
        if let errorType, !errorType.isEmpty, !message.hasPrefix(errorType) { line = "\(errorType): \(line)" }
        if let errorCode { line += " (\(errorCode))" }
        return line
    }
}

/// The server broke the real-time protocol.
public struct RealtimeProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
