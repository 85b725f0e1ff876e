/// Where and how to connect for subscriptions.
public struct RealtimeSettings: Sendable {
    /// The real-time endpoint (see ``RealtimeEndpoint``).
    public var url: WebSocketURL
    /// How the connection and each subscription are authorized.
    public var authorization: RealtimeAuthorization
    /// Seconds the connection, `connection_ack` and each `start_ack` may take.
    public var timeout: Double
    /// A PEM bundle of CA certificates to trust instead of the system's (wss).
    public var caFile: String?
    /// Whether a lost connection is made again (with the subscriptions started again).
    public var reconnect: Bool
    /// Failed reconnection attempts in a row before giving up.
    public var maxReconnectAttempts: Int
    /// The longest wait between attempts (seconds); waits grow from half a second, jittered (see ``backoff``).
    public var maxBackoff: Double
    /// The protocol spoken: AppSync GraphQL's `graphql-ws`, or the Events API's `aws-appsync-event-ws`.
    public var dialect: RealtimeDialect = .graphQL
    /// For token auth that can be renewed (a user-pool sign-in): the token to connect with, refreshed when it expires
    /// soon, or at once when `force` is set; nil when it cannot be had. Asked before each new connection, and again
    /// with `force` when the server refuses a connection, or a subscription's start, as unauthorized.
    public var renewToken: (@Sendable (_ force: Bool) -> String?)?

    /// Settings for `url` with `authorization`; reconnection on by default.
    public init(
        url: WebSocketURL, authorization: RealtimeAuthorization, timeout: Double, caFile: String? = nil,
        reconnect: Bool = true, maxReconnectAttempts: Int = Defaults.realtimeReconnectAttempts,
        maxBackoff: Double = Defaults.realtimeMaximumBackoff
    ) {
        self.url = url
        self.authorization = authorization
        self.timeout = timeout
        self.caFile = caFile
        self.reconnect = reconnect
        self.maxReconnectAttempts = maxReconnectAttempts
        self.maxBackoff = maxBackoff
    }

    /// The waits between reconnection attempts: 0.5 s doubled each time up to ``maxBackoff``, then a random half to
    /// whole of it (so that many clients do not come back at once).
    public var backoff: Backoff { Backoff(base: Defaults.realtimeFirstBackoff, maximum: maxBackoff, jitter: .upperHalf) }
}

/// Runs subscriptions over one AppSync real-time connection:
/// `connection_init` → `connection_ack` → `start`… → `start_ack` → `data`… → `stop` → `complete`, with a
/// `ka` watchdog and, after a lost connection, a new one with the subscriptions started again.
///
/// Waits block on the socket (no polling loop), and the cancellation flag ends them at once; the
/// subscriptions are then stopped and the connection closed cleanly.
///
/// ```swift
/// let subscriber = RealtimeSubscriber(settings: settings, cancellation: flag)
/// let ending = try subscriber.run([subscription], duration: nil) { event in print(event); return true }
/// ```
public final class RealtimeSubscriber {
    /// Where and how it connects.
    public let settings: RealtimeSettings
    private let cancellation: CancellationFlag?
    /// The wall clock (for signing and for reporting gaps), the sleeps and the jitter between reconnection attempts:
    /// the request steps' clock.
    private let clock: RetryClock
    /// Receives one line per protocol step (`> start …`, `< data …`); never a secret or an event's data.
    private let trace: ((String) -> Void)?

    /// True once every subscription has been acknowledged on some connection.
    private var everSubscribed = false
    /// When the last connection was lost, until the subscriptions run again.
    private var lostAt: Timestamp?
    private var failuresInARow = 0
    /// WebSocket protocol violations over every connection of this run.
    private var protocolErrors = 0
    /// The auth connections and starts use: the settings', with the token renewed as it goes.
    private var authorization: RealtimeAuthorization
    private var connectionsMade = 0
    /// Opens each connection's socket.
    private let connector: RealtimeConnector

    /// - Parameters:
    ///   - clock: the wall clock, and the sleeps and jitter between reconnection attempts; defaults to real time,
    ///     with sleeps that end on cancellation.
    ///   - connector: opens each connection's socket; defaults to a WebSocket over libcurl.
    public init(
        settings: RealtimeSettings, cancellation: CancellationFlag? = nil, clock: RetryClock? = nil, trace: ((String) -> Void)? = nil,
        connector: @escaping RealtimeConnector = RealtimeSocketRequest.webSocket
    ) {
        self.settings = settings
        authorization = settings.authorization
        self.cancellation = cancellation
        self.clock = clock ?? .live(cancellation: cancellation)
        self.trace = trace
        self.connector = connector
    }

    /// Subscribes and reports every event to `onEvent` until it returns false, `duration` seconds pass
    /// (nil: no limit), the cancellation flag is set, or an error.
    public func run(
        _ subscriptions: [RealtimeSubscription], duration: Double? = nil, onEvent: (RealtimeEvent) -> Bool
    ) throws(SubscriptionError) -> RealtimeEnding {
        let deadline = duration.map { Deadline.after($0) }
        while true {
            do {
                return try runConnection(subscriptions, deadline: deadline, onEvent: onEvent)
            } catch {
                guard error.isRetryable, settings.reconnect, everSubscribed else { throw error }
                if case .connection(.protocolViolation) = error {
                    // Counted over the whole run: a subscribe that succeeds resets failuresInARow, not this.
                    protocolErrors += 1
                    if protocolErrors >= Defaults.maxRealtimeProtocolErrors {
                        throw .tooManyProtocolErrors(count: protocolErrors, last: error.description)
                    }
                }
                failuresInARow += 1
                if failuresInARow > settings.maxReconnectAttempts {
                    throw .gaveUp(attempts: failuresInARow - 1, last: error.description)
                }
                if lostAt == nil { lostAt = now() }
                let delay = backoff(attempt: failuresInARow)
                _ = onEvent(.connectionLost(reason: error.description, attempt: failuresInARow, retryIn: delay))
                let remaining = deadline.map { Double($0.millisecondsFromNow) / 1000 } ?? delay
                clock.sleep(min(delay, max(0, remaining)))
                if cancellation?.isCancelled == true { return .cancelled }
                if let deadline, deadline.millisecondsFromNow <= 0 { return .timedOut }
            }
        }
    }

    private func now() -> Timestamp { clock.now() }

    /// Seconds before reconnection attempt `attempt` (``RealtimeSettings/backoff``, jittered by the clock).
    func backoff(attempt: Int) -> Double {
        settings.backoff.delay(attempt: attempt, random: clock.random())
    }

    /// Publishes to an Events API channel over the WebSocket (``RealtimeDialect/events``): one `publish` message
    /// per body of ``EventsPublisher/bodies(channel:texts:)``, each answered by `publish_success` (its outcomes go to
    /// `onBatch`) or `publish_error` (thrown), then the connection is closed.
    public func publish(channel: String, texts: [String], onBatch: ([EventsPublisher.Outcome]) -> Void) throws(SubscriptionError) {
        let (connection, _) = try connectAuthorized()
        defer { try? connection.close() }
        for (number, body) in EventsPublisher.bodies(channel: channel, texts: texts).enumerated() {
            let id = RandomUUID.string()
            let header = authorization.eventsHeader(body: body.serialized(.compact), at: now())
            var message = body.objectValue ?? [:]
            message["type"] = "publish"
            message["id"] = .string(id)
            message["authorization"] = .object(header)
            do {
                try connection.send(text: JSONValue.object(message).serialized(.compact))
            } catch {
                throw .connection(error)
            }
            trace?("> publish \(id)")
            let deadline = Deadline.after(settings.timeout)
            answer: while true {
                guard let received = try receive(connection, timeout: Double(max(0, deadline.millisecondsFromNow)) / 1000) else {
                    throw .connection(.timeout(seconds: settings.timeout, during: "waiting for publish_success"))
                }
                switch received {
                case .published(id, let result):
                    let offset = number * EventsPublisher.maxEventsPerRequest
                    guard let outcomes = EventsPublisher.outcomes(result, offset: offset) else {
                        throw .protocolViolation(RealtimeProtocolError("a publish_success without \"successful\""))
                    }
                    onBatch(outcomes)
                    break answer
                case .error(id, let errors):
                    throw .failed(name: channel, errors)
                case .connectionError(let errors):
                    throw .refused(errors)
                default:
                    continue
                }
            }
        }
    }

    // MARK: - One connection

    /// A subscription started on the current connection.
    private struct Started {
        let id: String
        let subscription: RealtimeSubscription
        var acknowledged = false
        /// Started again with a renewed token after an unauthorized refusal, and not acknowledged since (a second
        /// refusal is reported).
        var renewed = false
    }

    private func runConnection(
        _ subscriptions: [RealtimeSubscription], deadline: Deadline?, onEvent: (RealtimeEvent) -> Bool
    ) throws(SubscriptionError) -> RealtimeEnding {
        if cancellation?.isCancelled == true { return .cancelled }
        let connection: any RealtimeSocket
        let keepAliveMs: Int
        do {
            (connection, keepAliveMs) = try connectAuthorized()
        } catch .connection(.cancelled) {
            return .cancelled
        }
        var started: [Started] = []
        do throws(SubscriptionError) {
            for subscription in subscriptions {
                let id = RandomUUID.string()
                try start(subscription, id: id, on: connection)
                started.append(Started(id: id, subscription: subscription))
            }
            var keepAliveDeadline = Deadline.after(Double(keepAliveMs) / 1000)
            var ackDeadline: Deadline? = Deadline.after(settings.timeout)
            while true {
                var wait = keepAliveDeadline.millisecondsFromNow
                if let ackDeadline { wait = min(wait, ackDeadline.millisecondsFromNow) }
                if let deadline { wait = min(wait, deadline.millisecondsFromNow) }
                guard let message = try receive(connection, timeout: Double(max(0, wait)) / 1000) else {
                    if let deadline, deadline.millisecondsFromNow <= 0 {
                        stop(started, on: connection)
                        return .timedOut
                    }
                    if let ackDeadline, ackDeadline.millisecondsFromNow <= 0 {
                        throw SubscriptionError.connection(.timeout(seconds: settings.timeout, during: "waiting for start_ack"))
                    }
                    if keepAliveDeadline.millisecondsFromNow <= 0 { throw SubscriptionError.noKeepAlive(milliseconds: keepAliveMs) }
                    continue
                }
                switch message {
                case .keepAlive:
                    keepAliveDeadline = Deadline.after(Double(keepAliveMs) / 1000)
                case .startAck(let id):
                    guard let index = started.firstIndex(where: { $0.id == id }), !started[index].acknowledged else { continue }
                    started[index].acknowledged = true
                    started[index].renewed = false  // a later refusal (the renewed token expiring too) is renewed again
                    if !onEvent(.subscribed(name: started[index].subscription.name)) {
                        stop(started, on: connection)
                        return .stopped
                    }
                    if started.allSatisfy(\.acknowledged) {
                        ackDeadline = nil
                        everSubscribed = true
                        failuresInARow = 0
                        if let lostAt {
                            self.lostAt = nil
                            _ = onEvent(.resubscribed(missedFrom: lostAt, missedTo: now()))
                        }
                    }
                case .data(let id, let response):
                    guard let entry = started.first(where: { $0.id == id }) else { continue }
                    if !onEvent(.data(name: entry.subscription.name, response: response)) {
                        stop(started, on: connection)
                        return .stopped
                    }
                case .error(let id, let errors):
                    // A token that expired between connecting and starting: renew it and start that one again, once.
                    if let index = started.firstIndex(where: { $0.id == id }), !started[index].renewed,
                       errors.contains(where: \.isUnauthorized), renewToken(force: true)
                    {
                        let subscription = started[index].subscription
                        trace?("starting \(subscription.name) again with the renewed token")
                        let newID = RandomUUID.string()
                        try start(subscription, id: newID, on: connection)
                        started[index] = Started(id: newID, subscription: subscription, renewed: true)
                        ackDeadline = ackDeadline ?? Deadline.after(settings.timeout)
                        continue
                    }
                    let name = id.flatMap { id in started.first { $0.id == id }?.subscription.name }
                    stop(started.filter { $0.id != id }, on: connection)
                    throw SubscriptionError.failed(name: name, errors)
                case .connectionError(let errors):
                    connection.abandon()
                    throw SubscriptionError.refused(errors)
                case .complete(let id):
                    started.removeAll { $0.id == id }
                    if started.isEmpty {
                        try? connection.close(wait: Self.goodbyeWait)
                        return .completed
                    }
                case .connectionAck, .published, .other:
                    continue
                }
            }
        } catch .connection(.cancelled) {
            stop(started, on: connection)
            return .cancelled
        } catch {
            connection.abandon()
            throw error
        }
    }

    /// Connects (see ``connect()``) with a renewable token renewed first when this is a new connection, and once more,
    /// forced, when the server refuses it as unauthorized (a token that expired while the connection was up).
    /// IAM needs nothing here: its signer refreshes the credentials whenever it signs.
    private func connectAuthorized() throws(SubscriptionError) -> (any RealtimeSocket, Int) {
        if connectionsMade > 0 { _ = renewToken(force: false) }
        connectionsMade += 1
        do {
            return try connect()
        } catch {
            guard case .refused(let errors) = error, errors.contains(where: \.isUnauthorized), renewToken(force: true) else {
                throw error
            }
            trace?("connecting again with the renewed token")
            return try connect()
        }
    }

    /// Replaces the token with a renewed one; false when the auth is not a renewable token or none was had.
    private func renewToken(force: Bool) -> Bool {
        guard let renew = settings.renewToken, case .token = authorization.mode, let token = renew(force) else { return false }
        authorization = RealtimeAuthorization(apiURL: authorization.apiURL, mode: .token(token))
        return true
    }

    /// Connects with the auth header as a subprotocol, sends `connection_init` and waits for the ack;
    /// returns the connection and its `connectionTimeoutMs`.
    private func connect() throws(SubscriptionError) -> (any RealtimeSocket, Int) {
        let dialect = settings.dialect
        let header = dialect == .events ? authorization.eventsHeader(body: "{}", at: now()) : authorization.connectHeader(at: now())
        let connection: any RealtimeSocket
        trace?("connecting to \(settings.url) (subprotocols \(dialect.subprotocol), header-…)")
        do {
            connection = try connector(RealtimeSocketRequest(
                url: settings.url, subprotocols: [dialect.subprotocol, RealtimeAuthorization.subprotocol(header)],
                timeout: settings.timeout, caFile: settings.caFile, cancellation: cancellation))
            try connection.send(text: #"{"type":"connection_init"}"#)
            trace?("> connection_init")
        } catch {
            throw .connection(error)
        }
        let ackDeadline = Deadline.after(settings.timeout)
        do throws(SubscriptionError) {
            while true {
                let wait = Double(max(0, ackDeadline.millisecondsFromNow)) / 1000
                guard let message = try receive(connection, timeout: wait) else {
                    throw SubscriptionError.connection(.timeout(seconds: settings.timeout, during: "waiting for connection_ack"))
                }
                switch message {
                case .connectionAck(let milliseconds): return (connection, milliseconds)
                case .connectionError(let errors), .error(nil, let errors): throw SubscriptionError.refused(errors)
                default: continue
                }
            }
        } catch {
            connection.abandon()
            throw error
        }
    }

    /// Sends `start` for `subscription`: its request as the `data` string, and the auth header signed over it.
    private func start(_ subscription: RealtimeSubscription, id: String, on connection: any RealtimeSocket) throws(SubscriptionError) {
        let message: JSONValue
        switch settings.dialect {
        case .graphQL:
            let data = subscription.request.body.serialized(.compact)
            let header = authorization.startHeader(data: data, at: now())
            message = [
                "id": .string(id),
                "payload": ["data": .string(data), "extensions": ["authorization": .object(header)]],
                "type": "start",
            ]
        case .events:
            // The channel is the subscription's name; the authorization is signed over {"channel": …}.
            let signed = JSONValue.object(["channel": .string(subscription.name)]).serialized(.compact)
            let header = authorization.eventsHeader(body: signed, at: now())
            message = ["type": "subscribe", "id": .string(id), "channel": .string(subscription.name), "authorization": .object(header)]
        }
        do {
            try connection.send(text: message.serialized(.compact))
            trace?("> start \(id) \(subscription.name)")
        } catch {
            throw .connection(error)
        }
    }

    /// The next protocol message, nil when nothing came within `timeout`.
    private func receive(_ connection: any RealtimeSocket, timeout: Double) throws(SubscriptionError) -> RealtimeMessage? {
        let message: WebSocketMessage?
        do {
            message = try connection.receive(timeout: timeout)
        } catch {
            throw .connection(error)
        }
        switch message {
        case nil: return nil
        case .text(let text)?:
            do {
                let parsed = try RealtimeMessage.parse(text, dialect: settings.dialect)
                trace?("< " + parsed.summary)
                return parsed
            } catch {
                throw .protocolViolation(error)
            }
        case .binary?: return .other(type: "binary")
        case .close(let code, let reason)?:
            let why = reason.isEmpty ? "" : ": \(reason)"
            throw .connection(.connectionFailed("the real-time server closed the connection (\(code)\(why))"))
        }
    }

    /// The longest wait, in seconds, for the server's goodbyes (the `complete`s and its close frame) once gqlc is
    /// done: a server that answers neither must not keep it from exiting.
    static let goodbyeWait: Double = 1

    /// Ends the subscriptions cleanly, even after cancellation: `stop` for each, the `complete`s and the closing
    /// handshake awaited for ``goodbyeWait`` in all. Failures are ignored: the connection is going away anyway.
    private func stop(_ started: [Started], on connection: any RealtimeSocket) {
        var open = Set<String>()
        for entry in started {
            let message: JSONValue = ["id": .string(entry.id), "type": settings.dialect == .events ? "unsubscribe" : "stop"]
            if (try? connection.send(text: message.serialized(.compact), interruptible: false)) != nil {
                trace?("> stop \(entry.id)")
                open.insert(entry.id)
            }
        }
        let deadline = Deadline.after(min(settings.timeout, Self.goodbyeWait))
        while !open.isEmpty, deadline.millisecondsFromNow > 0 {
            let wait = Double(deadline.millisecondsFromNow) / 1000
            guard let received = try? connection.receive(timeout: wait, interruptible: false), case .text(let text) = received else { break }
            if case .complete(let id)? = try? RealtimeMessage.parse(text, dialect: settings.dialect) {
                trace?("< complete \(id)")
                open.remove(id)
            }
        }
        try? connection.close(wait: Double(max(0, deadline.millisecondsFromNow)) / 1000)
        trace?("closed")
    }
}
