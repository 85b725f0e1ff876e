/// What a subscription run reports, in order; the caller renders each as it comes and returns false to stop.
///
/// Events carry values and typed errors, never printed text.
public enum LiveEvent: Sendable {
    /// The server acknowledged a subscription (`start_ack`).
    case subscribed(name: String)
    /// The GraphQL errors an event came with; its result follows.
    case graphQLErrors([GraphQLError])
    /// An event's result at its subscription's decode path (null when absent), with the server's response.
    case result(name: String, value: JSONValue, response: GraphQLResponse)
    /// The connection broke; a new one is tried after `retryIn` seconds (`attempt` counts from 1).
    case connectionLost(reason: String, attempt: Int, retryIn: Double)
    /// Subscribed again after a lost connection: events between `missedFrom` and `missedTo` may have been missed.
    case resubscribed(missedFrom: Timestamp, missedTo: Timestamp)
    /// The server ended every subscription on its own; no more events will come. The run's last event.
    case completedByServer
    /// The run failed; the run's last event.
    case failed(SubscriptionFailure)
}

/// Why a subscription run failed, with what explains an unauthorized refusal.
public struct SubscriptionFailure: Error, Sendable {
    /// What went wrong.
    public let error: SubscriptionError
    /// Refused as unauthorized and the user-pool token could not be refreshed: why it could not (the one thing to say).
    public let renewalFailure: ContextError?
    /// Refused as unauthorized even with a renewed user-pool token: the sign-in itself is the problem.
    public var refusedDespiteRenewal: Bool { error.isUnauthorized && renewalFailure == nil && renewable }
    let renewable: Bool
}

/// Where and how the real-time connections of one run are made, resolved once: the URL, the auth (its signer,
/// key or renewable token, shared by every reconnection), the timeouts, and the injected cancellation, clock,
/// trace and socket connector.
public struct RealtimeContext {
    /// Where and how to connect.
    public var settings: RealtimeSettings
    /// The user-pool token's renewal; its failure explains a refusal.
    public var renewal: TokenRenewal?
    /// Set to end the subscriptions.
    public var cancellation: CancellationFlag?
    /// The wall clock, sleeps and jitter between reconnection attempts (nil: real time).
    public var clock: RetryClock?
    /// One line per protocol step, never a secret or an event's data.
    public var trace: ((String) -> Void)?
    /// Opens each WebSocket connection.
    public var connector: RealtimeConnector

    /// A context for `endpoint`'s auth at the real-time `url`; `duration` caps the connection timeout.
    public init(
        endpoint: Endpoint, url: WebSocketURL, renewal: TokenRenewal?, dialect: RealtimeDialect = .graphQL,
        reconnect: Bool = true, duration: Double? = nil, cancellation: CancellationFlag? = nil, clock: RetryClock? = nil,
        trace: ((String) -> Void)? = nil, connector: @escaping RealtimeConnector = RealtimeSocketRequest.webSocket
    ) {
        settings = RealtimeSettings(
            url: url, authorization: RealtimeAuthorization(endpoint: endpoint),
            timeout: min(endpoint.timeout, duration ?? endpoint.timeout), caFile: endpoint.caFile, reconnect: reconnect)
        settings.dialect = dialect
        settings.renewToken = renewal.map { renewal in { @Sendable force in renewal.renew(force: force) } }
        self.renewal = renewal
        secrets = endpoint.redactor.secrets + settings.authorization.secrets
        self.cancellation = cancellation
        self.clock = clock
        self.trace = trace
        self.connector = connector
    }

    /// The endpoint's secrets and the connection's auth (the key, token or signer's), to scrub from any output.
    public let secrets: [String]

    /// A subscriber over this context.
    public func subscriber() -> RealtimeSubscriber {
        RealtimeSubscriber(settings: settings, cancellation: cancellation, clock: clock, trace: trace, connector: connector)
    }
}

/// Why a subscribe operation could not be built; nothing was sent.
public enum SubscribeBuildError: Error, Sendable {
    /// The request could not be built from the arguments.
    case request(RequestBuildError)
    /// A model was named as a custom subscription (without the events to watch).
    case modelNeedsEvents(String)
    /// A custom subscription of the schema was named with model events.
    case customSubscriptionWithEvents(String)
    /// A model's subscriptions cannot serve a watch: the reason.
    case cannotWatch(model: String, RequestBuildError)
    /// A watch was asked to keep a whole filter object, which has no subscription form (conditions have one).
    case filterObjectCannotWatch(model: String)
}

/// Subscriptions run over one real-time connection (made again after a loss), reporting each event's result as a
/// ``LiveEvent``, until `limit` events, `duration` seconds, cancellation, the server's completion or a failure.
///
/// Ends `.success` (`.partial` when an event came with errors), `.cancelled`, or the failure's kind.
public struct SubscribeOperation: Sendable {
    /// The subscriptions, started on each connection in this order.
    public let subscriptions: [RealtimeSubscription]
    /// The change each model subscription reports, by its name (`onCreatePost`: create); empty for others.
    public let changes: [String: ChangeKind]
    /// Stop after this many events (an event with errors and no result counts).
    public var limit: Int?
    /// Stop after this many seconds.
    public var duration: Double?
    /// The path of the reported result inside each event's `data`; the request's decode path unless set.
    public var decodePath: @Sendable (RealtimeSubscription) -> [String] = { $0.request.decodePath }

    /// Runs `subscriptions` as they are (a document's, an Events channel's).
    public init(_ subscriptions: [RealtimeSubscription], changes: [String: ChangeKind] = [:]) {
        self.subscriptions = subscriptions
        self.changes = changes
    }

    /// A model's subscriptions, one per event, filtered by `conditions` (the list grammar) and selecting `includes`.
    public init(model: String, events: [SubscriptionEvent], conditions: [String], includes: [String], builder: RequestBuilder)
        throws(SubscribeBuildError)
    {
        self = try Self.model(model, events: events, conditions: conditions, includes: includes, builder: builder) { error in
            let isCustom = builder.schema.customOperations.contains { $0.kind == .subscription && $0.name == model }
            guard case .unknownModel = error, isCustom else { return .request(error) }
            return .customSubscriptionWithEvents(model)
        }
    }

    /// The schema's custom subscription `name` with its arguments.
    public init(custom name: String, arguments: RecordValues, includes: [String], builder: RequestBuilder) throws(SubscribeBuildError) {
        if builder.schema.models[name] != nil { throw .modelNeedsEvents(name) }
        do {
            let request = try builder.custom(name, kind: .subscription, arguments: arguments, include: includes)
            self.init([RealtimeSubscription(name: name, request: request)])
        } catch {
            throw .request(error)
        }
    }

    /// What a name on its own subscribes to: with `events`, the model `name`'s subscriptions (see
    /// ``init(model:events:conditions:includes:builder:)``); without, the schema's custom subscription `name` with
    /// `arguments`.
    public init(
        _ name: String, events: [SubscriptionEvent], conditions: [String], arguments: RecordValues, includes: [String],
        builder: RequestBuilder
    ) throws(SubscribeBuildError) {
        if events.isEmpty {
            try self.init(custom: name, arguments: arguments, includes: includes, builder: builder)
        } else {
            try self.init(model: name, events: events, conditions: conditions, includes: includes, builder: builder)
        }
    }

    /// The model's create, update and delete subscriptions for a watched listing, filtered by `conditions`; a model
    /// whose subscriptions cannot serve is refused with the reason, and so is a listing `withFilterObject` (a whole
    /// filter object, which subscriptions cannot take).
    public static func watching(
        _ model: String, conditions: [String], includes: [String], builder: RequestBuilder, withFilterObject: Bool = false
    ) throws(SubscribeBuildError) -> SubscribeOperation {
        if withFilterObject { throw .filterObjectCannotWatch(model: model) }
        return try Self.model(model, events: SubscriptionEvent.allCases, conditions: conditions, includes: includes, builder: builder) { error in
            if case .unknownModel = error { return .request(error) }
            return .cannotWatch(model: model, error)
        }
    }

    /// One subscription of `model` per event; `refusal` says what a request that cannot be built means.
    private static func model(
        _ model: String, events: [SubscriptionEvent], conditions: [String], includes: [String], builder: RequestBuilder,
        refusal: (RequestBuildError) -> SubscribeBuildError
    ) throws(SubscribeBuildError) -> SubscribeOperation {
        var subscriptions: [RealtimeSubscription] = []
        var changes: [String: ChangeKind] = [:]
        for event in events {
            do {
                let request = try builder.subscription(model, event: event, filter: FilterInput(where: conditions), include: includes)
                let name = request.decodePath.first ?? event.rawValue
                subscriptions.append(RealtimeSubscription(name: name, request: request))
                changes[name] = ChangeKind(event)
            } catch {
                throw refusal(error)
            }
        }
        return SubscribeOperation(subscriptions, changes: changes)
    }

    /// Subscribes over `context` and reports what happens to `events` until it returns false.
    public func run(in context: RealtimeContext, events: (LiveEvent) -> Bool) -> ResultKind {
        let names = Dictionary(subscriptions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var sawErrors = false
        var received = 0
        let subscriber = context.subscriber()
        let result: Result<RealtimeEnding, SubscriptionError> = Result { () throws(SubscriptionError) in
            try subscriber.run(subscriptions, duration: duration) { event in
                switch event {
                case .subscribed(let name):
                    return events(.subscribed(name: name))
                case .data(let name, let response):
                    if !response.errors.isEmpty {
                        sawErrors = true
                        guard events(.graphQLErrors(response.errors)) else { return false }
                    }
                    var value = response.data ?? .null
                    for key in names[name].map(decodePath) ?? [] { value = value[key] ?? .null }
                    guard events(.result(name: name, value: value, response: response)) else { return false }
                    received += 1
                    if let limit, received >= limit { return false }
                    return true
                case .connectionLost(let reason, let attempt, let delay):
                    return events(.connectionLost(reason: reason, attempt: attempt, retryIn: delay))
                case .resubscribed(let from, let to):
                    return events(.resubscribed(missedFrom: from, missedTo: to))
                }
            }
        }
        switch result {
        case .success(.cancelled):
            return .cancelled
        case .success(.completed):
            _ = events(.completedByServer)
            return sawErrors ? .partial : .success
        case .success:
            return sawErrors ? .partial : .success
        case .failure(let error):
            let renewalFailure = error.isUnauthorized ? context.renewal?.failure : nil
            _ = events(.failed(SubscriptionFailure(error: error, renewalFailure: renewalFailure, renewable: context.settings.renewToken != nil)))
            return error.kind
        }
    }
}
