/// Events published to a channel of an AppSync Events API, over HTTP (``EventsPublisher``) or over the real-time
/// WebSocket (`publish` → `publish_success`), five to a batch; a publish is never retried.
public struct EventsPublishOperation: Sendable {
    /// The channel, as ``EventsPublisher/channel(_:wildcard:)`` returns it.
    public let channel: String
    /// The events as the texts sent (``EventsPublisher/texts(_:)``).
    public let texts: [String]

    /// Publishes `texts` to `channel`.
    public init(channel: String, texts: [String]) {
        self.channel = channel
        self.texts = texts
    }

    /// What a publish did: the outcomes of the batches answered, and what stopped it.
    public struct Report: Sendable {
        /// Each event's outcome, for the batches that were answered.
        public var outcomes: [EventsPublisher.Outcome] = []
        /// What stopped the publish before every batch was answered; nil when none did.
        public var failure: Failure?
        /// `{"successful": […], "failed": […]}`, and whether some event failed (see ``EventsPublisher/summary(_:)``).
        public var summary: (answer: JSONValue, someFailed: Bool) { EventsPublisher.summary(outcomes) }
        /// The publish's result: the failure's kind, else partial when the API refused some events, else success.
        public var kind: ResultKind { failure?.kind ?? (summary.someFailed ? .partial : .success) }
    }

    /// Why a publish stopped: one line per thing to say, and the kind of failure.
    public struct Failure: Error, Sendable {
        /// What went wrong, then how many events were published before it when some were.
        public let lines: [String]
        /// What kind of failure it is.
        public let kind: ResultKind
    }

    /// Publishes over HTTP through `client`, whose endpoint is the API's ``EventsAPI/httpURL``. Any failure is an
    /// HTTP-level one.
    public func run(client: GraphQLClient) -> Report {
        var report = Report()
        do {
            try EventsPublisher(client: client).publish(channel: channel, texts: texts) { report.outcomes += $0 }
        } catch {
            let reason = switch error {
            case .transport(let failure), .stopped(let failure, _): failure.description
            case .api(let refusal, _): refusal.description
            }
            var lines = [reason]
            if error.published > 0 { lines.append("\(error.published) of \(texts.count) events were published before this; the rest were not sent") }
            report.failure = Failure(lines: lines, kind: .httpError)
        }
        return report
    }

    /// Publishes over one WebSocket connection of `realtime` (the Events dialect).
    public func run(over realtime: RealtimeContext) -> Report {
        var report = Report()
        do {
            try realtime.subscriber().publish(channel: channel, texts: texts) { report.outcomes += $0 }
        } catch {
            report.failure = Failure(lines: [error.description], kind: error.kind)
        }
        return report
    }
}

extension EventsInputError {
    /// The problem in one line, naming `source` (the file, or `<stdin>` for standard input) and the line.
    public func description(source: String) -> String {
        switch self {
        case .invalidJSON(let line, let error): "\(source):\(line):\(error.column): invalid JSON: \(error.message)"
        case .noEvents: "\(source): no events in it (one JSON value per line)"
        }
    }
}

extension EventsPublishOperation {
    /// The texts to publish: `events`, then those of `lines` (an NDJSON text read from `source`, the file's name or
    /// `<stdin>`), each checked against AppSync's size limit; the error is one line naming the source and line.
    public static func texts(_ events: [JSONValue], lines: String?, source: String) throws(EventsTextsError) -> [String] {
        var events = events
        do throws(EventsInputError) {
            if let lines { events += try EventsPublisher.events(lines: lines) }
        } catch {
            throw EventsTextsError(description: error.description(source: source))
        }
        do {
            return try EventsPublisher.texts(events)
        } catch {
            throw EventsTextsError(description: error.description)
        }
    }
}

/// Why the events given cannot be published, in one line.
public struct EventsTextsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}
