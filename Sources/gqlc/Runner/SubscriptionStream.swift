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

    /// Prints each event's result as it arrives (one line each, or one array with `--output json`), in `shape`; says
    /// on stderr when the connection is lost and for which span events may have been missed, and how the run ended.
    mutating func run(_ subscriptions: [RealtimeSubscription], shape: LiveEventShape = .result) -> ExitCode {
        var globals = session.globals
        // Events stream one per line unless an array was asked for.
        if !globals.outputGiven { globals.output = .ndjson }
        var printer = ResultPrinter(console: session.console, globals: globals)
        if globals.decodeJSONFields && shape != .response { printer.decodingSchema = schemaFile?.schema }
        var writer = LiveEventWriter(printer.beginList(), shape: shape)
        var operation = SubscribeOperation(subscriptions)
        operation.limit = count
        operation.duration = duration
        operation.decodePath = decodePath
        let ending: LiveEnding
        do {
            let context = try connection()
            // Made once connected: its copy of the diagnostics then scrubs the connection's secrets.
            var listener = self.listener
            ending = operation.run(in: context, listener: &listener) { event in writer.write(event) }
        } catch {
            diagnostics.failure(error)
            // Closed even when nothing could be connected: `--output json` still prints its (empty) array.
            writer.finish()
            return diagnostics.outputFailure(session.console.output) ?? error.status
        }
        writer.finish()
        return status(ending)
    }

    /// Says notices and errors on stderr as they come, scrubbed by the diagnostics' redactor as it is now.
    var listener: LiveListener { LiveListener(say: diagnostics.say, errors: diagnostics.graphQLErrors) }

    /// Says how the run ended and gives its status: a closed output's, else the ending's.
    func status(_ ending: LiveEnding) -> ExitCode {
        switch ending {
        case .ended, .completedByServer, .failed, .renewalFailed:
            // Said once the output is known to be open.
            if let failed = diagnostics.outputFailure(session.console.output) { return failed }
        case .listingFailed, .left:
            break
        }
        switch ending {
        case .completedByServer: diagnostics.say(.completedByServer)
        case .failed(let failure): diagnostics.error(failure.commandLineMessage)
        case .renewalFailed(let error):
            let failure = RunFailure(error)
            diagnostics.failure(failure)
            return failure.status
        case .listingFailed(let result):
            switch result.stop {
            case .graphQLErrors(let errors), .partial(let errors): diagnostics.graphQLErrors(errors)
            case .failed(let error): diagnostics.error(error)
            default: break
            }
        case .ended, .left: break
        }
        return ExitCode(ending.kind)
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
            do {
                // `--realtime-endpoint`, else `GQLC_REALTIME_ENDPOINT`, else the URL derived from the API's.
                context = try RealtimeContext(
                    endpoint: endpoint, url: realtimeEndpoint, setting: session.globals.realtimeEndpoint, renewal: renewal,
                    reconnect: reconnect, duration: duration, cancellation: session.cancellation)
            } catch {
                throw .usage(error.commandLineMessage)
            }
        }
        diagnostics.redactor = Redactor(secrets: context.secrets)
        context.trace = Self.trace(session, diagnostics.redactor)
        session.console.output.deferFailures()
        SignalTrap.exitOnSecondSignal()
        return context
    }
}
