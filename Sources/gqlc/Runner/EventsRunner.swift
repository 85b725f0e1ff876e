import GQLCore

/// `gqlc events publish|subscribe`: the Events API from `--events-endpoint` or `custom.events`, with the auth
/// resolved as for GraphQL (flags, `GQLC_*`, then the file's `custom.events` key and default type).
extension EventsCommand {
    static func run(_ invocation: EventsInvocation, in context: RunContext) -> ExitCode {
        let session = context.session
        var diagnostics = context.diagnostics
        let api: EventsAPI
        let endpoint: Endpoint
        let renewal: TokenRenewal?
        let texts: [String]
        do throws(RunFailure) {
            let file = try session.resolve { resolver throws(ContextError) in try resolver.schemaFile(required: false) }
            guard let url = invocation.endpoint ?? file?.service.events?.url else {
                throw .usage(
                    "no Events API: pass \(EventsCommand.endpoint.usageForm) (or set GQLC_EVENTS_ENDPOINT), or add custom.events "
                        + "to amplify_outputs.json")
            }
            do {
                api = try EventsAPI(url: url, realtime: invocation.realtimeEndpoint)
            } catch {
                throw .usage(error.description)
            }
            (endpoint, renewal) = try session.resolve { resolver throws(ContextError) in
                try resolver.forEndpoint(api.httpURL).authorizedEndpoint(file: EventsAPI.authorizationFile(file), model: nil)
            }
            diagnostics.redactor = endpoint.redactor
            texts = invocation.action == .publish ? try eventTexts(invocation, input: session.console.input) : []
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        let channel = (try? EventsPublisher.channel(invocation.channel, wildcard: invocation.action == .subscribe)) ?? invocation.channel
        var connection = api.connection(
            endpoint: endpoint, renewal: renewal, subscribing: invocation.action == .subscribe, duration: invocation.duration,
            cancellation: session.cancellation)
        connection.trace = SubscriptionStream.trace(session, diagnostics.redactor)
        switch invocation.action {
        case .publish:
            let operation = EventsPublishOperation(channel: channel, texts: texts)
            let report = invocation.overWebSocket
                ? operation.run(over: connection) : operation.run(client: session.resolver.client(endpoint: endpoint))
            ResultPrinter(console: session.console, globals: session.globals).print(report.summary.answer)
            report.failure?.lines.forEach(diagnostics.error)
            return ExitCode(report.kind)
        case .subscribe:
            var stream = SubscriptionStream(
                session: session, diagnostics: diagnostics, schemaFile: nil, count: invocation.count, duration: invocation.duration,
                events: connection)
            return stream.run([RealtimeSubscription(channel: channel)], shape: .channelEvent)
        }
    }

    /// The events as texts, checked against AppSync's limit: the arguments, or `--input`'s lines.
    private static func eventTexts(_ invocation: EventsInvocation, input: any InputReader) throws(RunFailure) -> [String] {
        let lines: String?
        do {
            lines = try invocation.input?.text(from: input)
        } catch {
            throw .usage("\(EventsCommand.input.flagName): \(error.description)")
        }
        do {
            return try EventsPublishOperation.texts(invocation.events, lines: lines, source: invocation.input?.name ?? "")
        } catch {
            throw .usage(error.description)
        }
    }
}
