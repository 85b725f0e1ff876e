import GQLCore

/// Runs a core ``SubscribeOperation`` and renders its events: shared by `subscribe`, `raw` with a subscription
/// document, `events subscribe` and `list --watch`.
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
    var decodePath: @Sendable (RealtimeSubscription) -> [String] = { $0.request.decodePath }
    /// For an Events API (``RealtimeDialect/events``): the connection, resolved by its runner.
    var events: RealtimeContext?

    /// Prints each event's result as it arrives (one line each, or one array with `--output json`), in `shape`.
    mutating func run(_ subscriptions: [RealtimeSubscription], shape: LiveEventShape = .result) -> ExitCode {
        var globals = session.globals
        // Events stream one per line unless an array was asked for.
        if !globals.outputGiven { globals.output = .ndjson }
        var printer = ResultPrinter(console: session.console, globals: globals)
        if globals.decodeJSONFields && shape != .response { printer.decodingSchema = schemaFile?.schema }
        var writer = LiveEventWriter(printer.beginList(), shape: shape)
        var operation = SubscribeOperation(subscriptions)
        operation.limit = count
        let status = run(operation) { event in writer.write(event) }
        writer.finish()
        if let failed = diagnostics.outputFailure(session.console.output) { return failed }
        return status
    }

    /// Runs `operation` (its duration this stream's) and hands each event to `handler` until it returns false; says on
    /// stderr when the connection is lost and for which span events may have been missed, reports GraphQL errors,
    /// and maps the ending to a status.
    mutating func run(_ operation: SubscribeOperation, handler: (LiveEvent) -> Bool) -> ExitCode {
        let context: RealtimeContext
        do {
            context = try connection()
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        var operation = operation
        operation.duration = duration
        operation.decodePath = decodePath
        var ending: LiveEvent?
        let kind = operation.run(in: context) { event in
            guard note(event, ending: &ending) else { return true }
            return handler(event)
        }
        return finish(kind, ending: ending)
    }

    /// Says an event's notice or errors on stderr, or keeps the ending for ``finish(_:ending:)``; true for the
    /// events it leaves to the caller (results).
    @discardableResult
    func note(_ event: LiveEvent, ending: inout LiveEvent?) -> Bool {
        switch event {
        case .result:
            return true
        case .graphQLErrors(let errors):
            diagnostics.graphQLErrors(errors)
        case .completedByServer, .failed:
            ending = event  // said once the output is known to be open
        case .subscribed, .connectionLost, .resubscribed:
            LiveNotice(event).map(diagnostics.say)
        }
        return false
    }

    /// The status of a run that ended `kind`: a closed output's, else the ending said.
    func finish(_ kind: ResultKind, ending: LiveEvent?) -> ExitCode {
        if let failed = diagnostics.outputFailure(session.console.output) { return failed }
        switch ending {
        case .completedByServer?:
            diagnostics.say(.completedByServer)
        case .failed(let failure)?:
            if let renewal = failure.renewalFailure.map(RunFailure.init) {
                diagnostics.failure(renewal)
                return renewal.status
            }
            let hint = failure.refusedDespiteRenewal ? "; " + RequestAuthorization.userPoolRefusedHint(remedy: \.commandLine) : ""
            diagnostics.error(failure.error.description + hint)
        default:
            break
        }
        return ExitCode(kind)
    }

    /// `--verbose`'s `* realtime: …` lines (one protocol step each, secrets scrubbed), or nil.
    static func trace(_ session: Session, _ redactor: Redactor) -> ((String) -> Void)? {
        guard session.globals.verbose else { return nil }
        let errorSink = session.console.error
        return { line in errorSink.write("* realtime: " + redactor.scrub(Diagnostics.oneLine(line)) + "\n") }
    }

    /// The real-time URL and auth, resolved once; the secrets are registered for scrubbing. A closed stdout will end
    /// the run as a count does (stop, close), then the process; a second Ctrl-C need not wait for the goodbyes.
    mutating func connection() throws(RunFailure) -> RealtimeContext {
        var context: RealtimeContext
        if let events {
            context = events
        } else {
            let (endpoint, renewal) = try session.resolve { resolver throws(ContextError) in
                try resolver.authorizedEndpoint(file: schemaFile, model: model)
            }
            context = RealtimeContext(
                endpoint: endpoint, url: try url(endpoint), renewal: renewal, reconnect: reconnect, duration: duration,
                cancellation: session.cancellation)
        }
        diagnostics.redactor = Redactor(secrets: context.secrets)
        context.trace = Self.trace(session, diagnostics.redactor)
        session.console.output.deferFailures()
        SignalTrap.exitOnSecondSignal()
        return context
    }

    /// `--realtime-endpoint`, else `GQLC_REALTIME_ENDPOINT`, else the URL derived from the API's (the core's order).
    private func url(_ endpoint: Endpoint) throws(RunFailure) -> WebSocketURL {
        let (flag, setting) = (SubscribeCommand.realtimeEndpoint, session.globals.realtimeEndpoint)
        do {
            return try RealtimeEndpoint.url(given: realtimeEndpoint, setting: setting?.value, forAPI: endpoint.url.absoluteString)
        } catch {
            switch error.source {
            case .given: throw .usage("\(flag.flagName): \(error)")
            case .setting: throw .usage("\(setting?.origin.describe(flag) ?? flag.flagName): \(error)")
            case .derived: throw .usage("\(error); pass \(flag.flagName) URL")
            }
        }
    }
}
