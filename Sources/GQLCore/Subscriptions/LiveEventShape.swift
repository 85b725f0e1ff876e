/// How a subscription's event is written as one JSON value (one line of a stream).
public enum LiveEventShape: Equatable, Sendable {
    /// The record (or result) at the subscription's decode path, as a get reports it.
    case result
    /// `{"event": "create", "item": {…}}` for a model's events (the change named from the subscription, see
    /// ``SubscribeOperation/changes``), `{"event": "data", "subscription": "onPostLiked", "item": …}` for others.
    case envelope(events: [String: ChangeKind])
    /// The server's `data` message payload as it came: `{"data": {…}, "errors": […]}`.
    case response
    /// An Events API event: `{"channel": CHANNEL, "event": …}` (the channel subscribed to).
    case channelEvent

    /// The value written for the event of subscription `name`: its result `value`, from `response`.
    public func line(name: String, value: JSONValue, response: GraphQLResponse) -> JSONValue {
        switch self {
        case .result:
            return value
        case .envelope(let events):
            if let kind = events[name] { return WatchEvent.change(kind, value).envelope }
            return .object(["event": "data", "subscription": .string(name), "item": value])
        case .response:
            return response.printableEnvelope
        case .channelEvent:
            return .object(["channel": .string(name), "event": value])
        }
    }

    /// Whether the event is written at all: an event whose result is null because of its errors is not (the
    /// errors are reported), unless the response is written as it came.
    public func writes(_ value: JSONValue, of response: GraphQLResponse) -> Bool {
        self == .response || !(value.isNull && !response.errors.isEmpty)
    }
}
