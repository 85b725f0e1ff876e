/// An AppSync Events API as `amplify_outputs.json` describes it in `custom.events` (the block Amplify's docs add
/// with `backend.addOutput`): its HTTP URL, region, default authorization type and API key.
public struct EventsConfig: Sendable, Equatable {
    public var url: String
    public var region: String?
    public var defaultAuthorizationType: String?
    public var apiKey: String?

    public init(url: String, region: String? = nil, defaultAuthorizationType: String? = nil, apiKey: String? = nil) {
        self.url = url
        self.region = region
        self.defaultAuthorizationType = defaultAuthorizationType
        self.apiKey = apiKey
    }
}

/// Where an Events API is reached: `https://DOMAIN/event` for publishing over HTTP, and
/// `wss://REALTIME-DOMAIN/event/realtime` for the WebSocket.
public struct EventsAPI: Sendable, Equatable {
    /// The HTTP publish URL (`…/event`); also what IAM signatures are scoped to.
    public let httpURL: EndpointURL
    /// The real-time URL.
    public let realtimeURL: WebSocketURL

    /// The API at `url`: its HTTP domain (`https://ID.appsync-api.REGION.amazonaws.com`, with or without `/event`).
    /// The real-time domain is derived as AWS names it (`appsync-api` → `appsync-realtime-api`), or the same host
    /// for any other URL, unless `realtime` gives it.
    public init(url: String, realtime: String? = nil) throws(EventsError) {
        var base = url.hasSuffix("/") ? String(url.dropLast()) : url
        if !base.contains("://") { base = "https://" + base }
        if base.hasSuffix("/event") { base = String(base.dropLast("/event".count)) }
        do {
            httpURL = try EndpointURL(parsing: base + "/event")
        } catch {
            throw .badURL(url, error.description)
        }
        if let realtime {
            do {
                realtimeURL = try WebSocketURL(realtime)
            } catch {
                throw .badURL(realtime, error.description)
            }
            return
        }
        let secure = base.hasPrefix("https://")
        let rest = base.drop { $0 != ":" }.dropFirst(3)
        let host = rest.replacing(".appsync-api.", with: ".appsync-realtime-api.")
        do {
            realtimeURL = try WebSocketURL((secure ? "wss://" : "ws://") + host + "/event/realtime")
        } catch {
            throw .badURL(url, error.description)
        }
    }
}

/// Why events cannot be published or subscribed to. Messages never name a command-line flag.
public enum EventsError: Error, Sendable, Equatable, CustomStringConvertible {
    case badURL(String, String)
    /// An event is larger than AppSync allows (240 KB).
    case eventTooLarge(index: Int, bytes: Int)
    /// A channel that is not `/NAMESPACE/segment…`.
    case badChannel(String, wildcard: Bool)
    /// The server refused a publish as a whole.
    case refused(status: Int, message: String)
    /// The server's answer is not the documented `{"successful", "failed"}`.
    case unexpectedAnswer(String)

    public var description: String {
        switch self {
        case .badURL(let url, let reason): return "invalid Events API URL '\(url)': \(reason)"
        case .eventTooLarge(let index, let bytes):
            return "event \(index + 1) is \(bytes) bytes; an AppSync event may be at most 240 KB (\(EventsPublisher.maxEventBytes) bytes)"
        case .badChannel(let channel, let wildcard):
            return "invalid channel '\(channel)': expected /NAMESPACE/SEGMENT… (1 to 5 segments of letters, digits and -)"
                + (wildcard ? ", or ending in /* to subscribe to every channel below it" : "")
        case .refused(let status, let message): return "the Events API refused the publish (HTTP \(status)): \(message)"
        case .unexpectedAnswer(let text): return "the Events API's answer is not {\"successful\", \"failed\"}: \(text)"
        }
    }
}

extension EventsAPI {
    /// The real-time connection of a run over this API with `endpoint`'s auth: a subscription connects again after a
    /// lost connection and lasts `duration`; a publish over the WebSocket does neither.
    public func connection(
        endpoint: Endpoint, renewal: TokenRenewal?, subscribing: Bool, duration: Double?, cancellation: CancellationFlag?
    ) -> RealtimeContext {
        RealtimeContext(
            endpoint: endpoint, url: realtimeURL, renewal: renewal, dialect: .events, reconnect: subscribing,
            duration: subscribing ? duration : nil, cancellation: cancellation)
    }
}

extension RealtimeSubscription {
    /// The subscription to an Events API channel (`/default/*`), whose events are reported under the channel's name;
    /// it sends no GraphQL document.
    public init(channel: String) {
        self.init(name: channel, request: GraphQLRequest(query: ""))
    }
}
