import GQLCore

/// Runs subscriptions and prints their events: shared by `subscribe` and `raw` with a subscription document.
///
/// Each event's result is printed as it arrives (NDJSON, one line per event, unless `--output json` was given:
/// then one array, closed when the run ends); `subscribed: NAME` and connection notes go to stderr.
struct SubscriptionStream {
    let session: Session
    var diagnostics: Diagnostics
    let schemaFile: SchemaFile?
    /// The model whose events are watched; its auth rules choose the auth mode, as for the other model commands.
    var model: Model?
    /// `--realtime-endpoint`, if given.
    var realtimeEndpoint: String?
    /// Stop after this many events.
    var count: Int?
    /// Stop after this many seconds.
    var duration: Double?
    var reconnect = true
    /// The path of the printed result inside each event's `data` (`onCreatePost`); empty prints all of `data`.
    var decodePath: (RealtimeSubscription) -> [String] = { _ in [] }
    /// The user-pool token's renewal, once the settings are made; its failure explains a refusal.
    var renewal: TokenRenewal?
    /// For an Events API (``RealtimeDialect/events``): its real-time URL, and its endpoint with the auth resolved.
    var events: (url: WebSocketURL, endpoint: Endpoint, renewal: TokenRenewal?)?

    /// What the handler of ``run(_:handler:)`` is told: a subscription acknowledged, an event's result (at its decode
    /// path) with the event's response, or subscribed again after a lost connection.
    enum Delivery {
        case subscribed(name: String)
        case result(name: String, value: JSONValue, response: GraphQLResponse)
        case resubscribed
    }

    /// Prints each event's result as it arrives (one line each, or one array with `--output json`), in the shape
    /// `shape` asks for.
    mutating func run(_ subscriptions: [RealtimeSubscription], shape: EventShape = .result) -> ExitCode {
        var globals = session.globals
        // Events stream one per line unless an array was asked for.
        if !globals.outputGiven { globals.output = .ndjson }
        var printer = ResultPrinter(console: session.console, globals: globals)
        if globals.decodeJSONFields && shape != .response { printer.decodingSchema = schemaFile?.schema }
        var stream = printer.beginList()
        let errorSink = session.console.error
        var received = 0
        var outputClosed = false
        let limit = count
        let status = run(subscriptions) { delivery in
            switch delivery {
            case .subscribed(let name):
                errorSink.write("subscribed: \(name)\n")
            case .result(let name, let value, let response):
                // An event whose result is null because of its errors prints only the errors; it still counts.
                if shape == .response || !(value.isNull && !response.errors.isEmpty) {
                    guard stream.write([shape.line(name: name, value: value, response: response)]) else {
                        outputClosed = true
                        return false
                    }
                }
                received += 1
                if let limit, received >= limit { return false }
            case .resubscribed:
                break
            }
            return true
        }
        if !outputClosed { stream.finish() }
        if let failed = diagnostics.outputFailure(session.console.output) { return failed }
        return status
    }

    /// Subscribes and hands each event to `handler` until it returns false; says on stderr when the connection is
    /// lost and for which span events may have been missed, reports GraphQL errors, and maps the ending to a status.
    mutating func run(_ subscriptions: [RealtimeSubscription], handler: (Delivery) -> Bool) -> ExitCode {
        let settings: RealtimeSettings
        do {
            settings = try self.settings()
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        // A closed stdout ends the subscriptions as --count does (stop, close), then the process (ExitCode.closedPipe).
        session.console.output.deferFailures()
        let diagnostics = self.diagnostics
        let decodePath = self.decodePath
        let names = Dictionary(subscriptions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var sawErrors = false
        let subscriber = RealtimeSubscriber(
            settings: settings, cancellation: session.cancellation, trace: Self.trace(session, diagnostics.redactor))
        // After Ctrl-C the subscriber says goodbye (for a second at most); a second Ctrl-C need not wait for that.
        SignalTrap.exitOnSecondSignal()
        let result: Result<RealtimeEnding, SubscriptionError> = Result { () throws(SubscriptionError) in
            try subscriber.run(subscriptions, duration: duration) { event in
                switch event {
                case .subscribed(let name):
                    return handler(.subscribed(name: name))
                case .data(let name, let response):
                    if !response.errors.isEmpty {
                        sawErrors = true
                        diagnostics.graphQLErrors(response.errors)
                    }
                    var value = response.data ?? .null
                    for key in names[name].map(decodePath) ?? [] { value = value[key] ?? .null }
                    return handler(.result(name: name, value: value, response: response))
                case .connectionLost(let reason, let attempt, let delay):
                    diagnostics.error("connection lost: \(reason); connecting again in \(Self.seconds(delay)) s (attempt \(attempt))")
                    return true
                case .resubscribed(let from, let to):
                    diagnostics.error(
                        "subscribed again; events between \(from.clockUTC) and \(to.clockUTC) UTC "
                            + "(\(Self.seconds(to.seconds(since: from))) s) may have been missed")
                    return handler(.resubscribed)
                }
            }
        }
        if let failed = diagnostics.outputFailure(session.console.output) { return failed }
        switch result {
        case .success(.cancelled):
            return .interrupted
        case .success(.completed):
            // The server ended every subscription: not the user's choice, so say it.
            diagnostics.error("the server completed the subscription; no more events will come")
            return sawErrors ? .partial : .success
        case .success:
            return sawErrors ? .partial : .success
        case .failure(let error):
            // Refused and the token could not be refreshed: why it could not is the one line to give.
            if error.isUnauthorized, let failure = renewal?.failure.map(RunFailure.init) {
                diagnostics.failure(failure)
                return failure.status
            }
            // Refused even with a renewed user-pool token: the sign-in itself is the problem.
            let hint = error.isUnauthorized && settings.renewToken != nil ? "; " + RequestAuthorization.userPoolRefusedHint(remedy: \.commandLine) : ""
            diagnostics.error(error.description + hint)
            return error.exitStatus
        }
    }

    /// `--verbose`'s `* realtime: …` lines (one protocol step each, secrets scrubbed), or nil.
    static func trace(_ session: Session, _ redactor: Redactor) -> ((String) -> Void)? {
        guard session.globals.verbose else { return nil }
        let errorSink = session.console.error
        return { line in errorSink.write("* realtime: " + redactor.scrub(Diagnostics.oneLine(line)) + "\n") }
    }

    /// The real-time URL, auth and timeouts; the secrets are registered for scrubbing.
    private mutating func settings() throws(RunFailure) -> RealtimeSettings {
        if let events {
            let authorization = RealtimeAuthorization(endpoint: events.endpoint)
            diagnostics.redactor = Redactor(secrets: events.endpoint.redactor.secrets + authorization.secrets)
            var settings = RealtimeSettings(
                url: events.url, authorization: authorization, timeout: min(events.endpoint.timeout, duration ?? events.endpoint.timeout),
                caFile: events.endpoint.caFile, reconnect: reconnect)
            settings.dialect = .events
            renewal = events.renewal
            settings.renewToken = events.renewal.map { renewal in { @Sendable force in renewal.renew(force: force) } }
            return settings
        }
        let (endpoint, renewToken) = try session.resolve { resolver throws(ContextError) in
            try resolver.authorizedEndpoint(file: schemaFile, model: model)
        }
        let authorization = RealtimeAuthorization(endpoint: endpoint)
        diagnostics.redactor = Redactor(secrets: endpoint.redactor.secrets + authorization.secrets)
        let url: WebSocketURL
        if let given = realtimeEndpoint {
            do {
                url = try WebSocketURL(given)
            } catch {
                throw .usage("\(SubscribeCommand.realtimeEndpoint.flagName): \(error.description)")
            }
        } else if let setting = session.globals.realtimeEndpoint {
            do {
                url = try WebSocketURL(setting.value)
            } catch {
                throw .usage("\(setting.origin.describe(SubscribeCommand.realtimeEndpoint)): \(error.description)")
            }
        } else {
            do {
                url = try RealtimeEndpoint.url(forAPI: endpoint.url.absoluteString)
            } catch {
                throw .usage("\(error.description); pass \(SubscribeCommand.realtimeEndpoint.flagName) URL")
            }
        }
        var settings = RealtimeSettings(
            url: url, authorization: authorization, timeout: min(endpoint.timeout, duration ?? endpoint.timeout),
            caFile: endpoint.caFile, reconnect: reconnect)
        renewal = renewToken
        settings.renewToken = renewToken.map { renewal in { @Sendable force in renewal.renew(force: force) } }
        return settings
    }

    /// `1.5`, for durations in messages.
    static func seconds(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

}

/// How `subscribe` prints an event.
enum EventShape: Equatable {
    /// The record (or result) at the subscription's decode path, as get prints it.
    case result
    /// `{"event": "create", "item": {…}}` for a model's events (the event named from the subscription),
    /// `{"event": "data", "subscription": "onPostLiked", "item": …}` for a custom subscription's.
    case envelope(events: [String: ChangeKind])
    /// The server's `data` message payload as it came: `{"data": {…}, "errors": […]}`.
    case response
    /// An Events API event: `{"channel": CHANNEL, "event": …}` (the channel subscribed to).
    case channelEvent

    func line(name: String, value: JSONValue, response: GraphQLResponse) -> JSONValue {
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
}
