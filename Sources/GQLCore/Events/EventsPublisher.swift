/// Publishes events to an AppSync Events channel over HTTP: `POST …/event` with `{"channel", "events"}`, the events
/// as JSON texts, at most five a request. Every event is checked before the first request is sent.
public struct EventsPublisher: Sendable {
    /// AppSync's limits: events per publish, and bytes per event.
    public static let maxEventsPerRequest = 5
    public static let maxEventBytes = 240 * 1024

    public let client: GraphQLClient

    /// `client`'s endpoint is the API's ``EventsAPI/httpURL``, with its auth.
    public init(client: GraphQLClient) {
        self.client = client
    }

    /// What the API said of one event: its index among all the events published, and its identifier or error.
    public struct Outcome: Sendable, Equatable {
        public var index: Int
        public var identifier: String?
        public var error: String?
    }

    /// The events as the texts sent, each checked against the size limit.
    public static func texts(_ events: [JSONValue]) throws(EventsError) -> [String] {
        try events.enumerated().map { index, event throws(EventsError) in
            let text = event.serialized(.compact)
            guard text.utf8.count <= maxEventBytes else { throw .eventTooLarge(index: index, bytes: text.utf8.count) }
            return text
        }
    }

    /// The request bodies: the events in batches of five.
    public static func bodies(channel: String, texts: [String]) -> [JSONValue] {
        stride(from: 0, to: texts.count, by: maxEventsPerRequest).map { start in
            let batch = texts[start..<min(texts.count, start + maxEventsPerRequest)]
            return ["channel": .string(channel), "events": .array(batch.map(JSONValue.string))]
        }
    }

    /// A channel path checked as AppSync checks it: `/NAMESPACE/SEGMENT…`, 1 to 5 segments of letters, digits and
    /// `-` (at most 50 characters each); with `wildcard`, a last segment `*` too. Returns it with a leading `/`.
    public static func channel(_ text: String, wildcard: Bool) throws(EventsError) -> String {
        var segments = text.split(separator: "/", omittingEmptySubsequences: true)
        if wildcard, segments.last == "*", segments.count > 1 { segments.removeLast() }
        let valid = (1...5).contains(segments.count) && segments.allSatisfy { segment in
            segment.count <= 50 && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        guard valid, !text.contains("//") else { throw .badChannel(text, wildcard: wildcard) }
        return text.hasPrefix("/") ? text : "/" + text
    }

    /// Publishes `texts` to `channel`, five at a time; `onBatch` is told each batch's outcomes as they come.
    /// Publishing is not retried (a lost answer could mean a second copy of each event).
    public func publish(
        channel: String, texts: [String], onBatch: ([Outcome]) -> Void
    ) throws(PublishFailure) {
        for (number, body) in Self.bodies(channel: channel, texts: texts).enumerated() {
            let offset = number * Self.maxEventsPerRequest
            do throws(PublishFailure) {
                let response: HTTPResponse
                do {
                    (response, _) = try client.send(body: Array(body.serialized(.compact).utf8), mayRetry: false, mayResend: false)
                } catch {
                    throw .transport(error)
                }
                onBatch(try Self.outcomes(response, offset: offset))
            } catch {
                throw error.after(published: offset)
            }
        }
    }

    static func outcomes(_ response: HTTPResponse, offset: Int) throws(PublishFailure) -> [Outcome] {
        let text = String(decoding: response.body, as: UTF8.self)
        let json = try? JSONValue.parse(text)
        guard response.status == 200 else {
            let message = json?["errors"]?[0]?["message"]?.stringValue ?? json?["message"]?.stringValue ?? text.oneLine()
            throw .api(.refused(status: response.status, message: message), published: offset)
        }
        guard let json, let outcomes = outcomes(json, offset: offset) else {
            throw .api(.unexpectedAnswer(text.oneLine()), published: offset)
        }
        return outcomes
    }

    /// The events' outcomes in a publish's answer (`{"successful": […], "failed": […]}`, over HTTP or in a
    /// `publish_success` message), indexed among all the events published; nil when it has no `successful` list.
    static func outcomes(_ answer: JSONValue, offset: Int) -> [Outcome]? {
        guard case .array(let successful)? = answer["successful"] else { return nil }
        func index(_ entry: JSONValue) -> Int { offset + (entry["index"]?.numberText.flatMap { Int($0) } ?? 0) }
        var outcomes = successful.map { entry in Outcome(index: index(entry), identifier: entry["identifier"]?.stringValue) }
        outcomes += (answer["failed"]?.arrayValue ?? []).map { entry in
            let reason = [entry["code"]?.stringValue ?? entry["code"]?.numberText, entry["message"]?.stringValue]
                .compactMap { $0 }.joined(separator: ": ")
            return Outcome(index: index(entry), identifier: entry["identifier"]?.stringValue, error: reason.isEmpty ? "failed" : reason)
        }
        return outcomes.sorted { $0.index < $1.index }
    }
}

/// A publish that stopped: how many events were published before the batch that failed.
public enum PublishFailure: Error, Sendable {
    case transport(ExecutionError)
    case api(EventsError, published: Int)
    case stopped(ExecutionError, published: Int)

    func after(published: Int) -> PublishFailure {
        if case .transport(let error) = self { return .stopped(error, published: published) }
        return self
    }

    /// Events published before the failure.
    public var published: Int {
        switch self {
        case .transport: 0
        case .api(_, let count), .stopped(_, let count): count
        }
    }
}
