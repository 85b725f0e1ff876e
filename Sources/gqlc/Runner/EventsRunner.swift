import GQLCore

/// `gqlc events publish|subscribe`: the Events API from `--events-endpoint` or `custom.events`, with the auth
/// resolved as for GraphQL (flags, `GQLC_*`, then the file's `custom.events` key and default type).
struct EventsRunner {
    let session: Session
    var diagnostics: Diagnostics

    mutating func run(_ invocation: EventsInvocation) -> ExitCode {
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
                try resolver.forEndpoint(api.httpURL.absoluteString).authorizedEndpoint(file: EventsAPI.authorizationFile(file), model: nil)
            }
            diagnostics.redactor = endpoint.redactor
            texts = invocation.action == .publish ? try eventTexts(invocation) : []
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        let channel = (try? EventsPublisher.channel(invocation.channel, wildcard: invocation.action == .subscribe)) ?? invocation.channel
        let connection = RealtimeContext(
            endpoint: endpoint, url: api.realtimeURL, renewal: renewal, dialect: .events,
            reconnect: invocation.action == .subscribe, duration: invocation.action == .subscribe ? invocation.duration : nil,
            cancellation: session.cancellation)
        switch invocation.action {
        case .publish:
            let operation = EventsPublishOperation(channel: channel, texts: texts)
            var overWebSocket = connection
            overWebSocket.trace = SubscriptionStream.trace(session, diagnostics.redactor)
            let report = invocation.overWebSocket
                ? operation.run(over: overWebSocket) : operation.run(client: session.resolver.client(endpoint: endpoint))
            let (answer, someFailed) = report.summary
            ResultPrinter(console: session.console, globals: session.globals).print(answer)
            guard let failure = report.failure else { return someFailed ? .partial : .success }
            failure.lines.forEach(diagnostics.error)
            return ExitCode(failure.kind)
        case .subscribe:
            var stream = SubscriptionStream(
                session: session, diagnostics: diagnostics, schemaFile: nil, count: invocation.count, duration: invocation.duration,
                events: connection)
            return stream.run([RealtimeSubscription(name: channel, request: GraphQLRequest(query: ""))], shape: .channelEvent)
        }
    }

    /// The events as texts, checked against AppSync's limit: the arguments, or `--input`'s lines.
    private func eventTexts(_ invocation: EventsInvocation) throws(RunFailure) -> [String] {
        let lines: String?
        do {
            lines = try invocation.input?.text(from: session.console.input)
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
