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
            let config = file?.service.events
            guard let url = invocation.endpoint ?? config?.url else {
                throw .usage(
                    "no Events API: pass \(EventsCommand.endpoint.usageForm) (or set GQLC_EVENTS_ENDPOINT), or add custom.events "
                        + "to amplify_outputs.json")
            }
            do {
                api = try EventsAPI(url: url, realtime: invocation.realtimeEndpoint)
            } catch {
                throw .usage(error.description)
            }
            (endpoint, renewal) = try authorizedEndpoint(api, file: file, config: config)
            diagnostics.redactor = endpoint.redactor
            texts = invocation.action == .publish ? try eventTexts(invocation) : []
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        let channel = (try? EventsPublisher.channel(invocation.channel, wildcard: invocation.action == .subscribe)) ?? invocation.channel
        switch invocation.action {
        case .publish:
            return invocation.overWebSocket
                ? publishOverWebSocket(channel, texts: texts, api: api, endpoint: endpoint, renewal: renewal)
                : publish(channel, texts: texts, endpoint: endpoint)
        case .subscribe:
            var stream = SubscriptionStream(
                session: session, diagnostics: diagnostics, schemaFile: nil, count: invocation.count,
                duration: invocation.duration)
            stream.events = (api.realtimeURL, endpoint, renewal)
            return stream.run([RealtimeSubscription(name: channel, request: GraphQLRequest(query: ""))], shape: .channelEvent)
        }
    }

    /// The endpoint at the API's `/event` URL with the auth chosen as for GraphQL, the file's `custom.events` key
    /// and default authorization type standing in for its `data` ones.
    private func authorizedEndpoint(_ api: EventsAPI, file: SchemaFile?, config: EventsConfig?) throws(RunFailure)
        -> (Endpoint, TokenRenewal?)
    {
        var eventsFile = file
        if let config {
            eventsFile?.service.apiKey = config.apiKey ?? file?.service.apiKey
            eventsFile?.service.region = config.region ?? file?.service.region
            eventsFile?.service.defaultAuthorizationType = config.defaultAuthorizationType ?? file?.service.defaultAuthorizationType
            eventsFile?.service.additionalAuthorizationTypes = []
        }
        return try session.resolve { resolver throws(ContextError) in
            try resolver.forEndpoint(api.httpURL.absoluteString).authorizedEndpoint(file: eventsFile, model: nil)
        }
    }

    /// The events as texts, checked against AppSync's limit: the arguments, or `--input`'s lines.
    private func eventTexts(_ invocation: EventsInvocation) throws(RunFailure) -> [String] {
        var events = invocation.events
        if let source = invocation.input {
            let text: String
            do {
                text = try source.text(session.console)
            } catch {
                throw .usage("\(EventsCommand.input.flagName): \(error.description)")
            }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                do {
                    events.append(try JSONValue.parse(String(line)))
                } catch {
                    throw .usage("\(source.name):\(number + 1):\(error.column): invalid JSON: \(error.message)")
                }
            }
            guard !events.isEmpty else { throw .usage("\(source.name): no events in it (one JSON value per line)") }
        }
        do {
            return try EventsPublisher.texts(events)
        } catch {
            throw .usage(error.description)
        }
    }

    private func publish(_ channel: String, texts: [String], endpoint: Endpoint) -> ExitCode {
        let publisher = EventsPublisher(client: session.resolver.client(endpoint: endpoint))
        var outcomes: [EventsPublisher.Outcome] = []
        do {
            try publisher.publish(channel: channel, texts: texts) { outcomes += $0 }
        } catch {
            printOutcomes(outcomes)
            switch error {
            case .transport(let failure), .stopped(let failure, _): diagnostics.error(failure.description)
            case .api(let refusal, _): diagnostics.error(refusal.description)
            }
            if error.published > 0 {
                diagnostics.error("\(error.published) of \(texts.count) events were published before this; the rest were not sent")
            }
            return .httpError
        }
        return printOutcomes(outcomes)
    }

    private func publishOverWebSocket(
        _ channel: String, texts: [String], api: EventsAPI, endpoint: Endpoint, renewal: TokenRenewal?
    ) -> ExitCode {
        var settings = RealtimeSettings(
            url: api.realtimeURL, authorization: RealtimeAuthorization(endpoint: endpoint), timeout: endpoint.timeout,
            caFile: endpoint.caFile, reconnect: false)
        settings.dialect = .events
        settings.renewToken = renewal.map { renewal in { @Sendable force in renewal.renew(force: force) } }
        let subscriber = RealtimeSubscriber(
            settings: settings, cancellation: session.cancellation, trace: SubscriptionStream.trace(session, diagnostics.redactor))
        var outcomes: [EventsPublisher.Outcome] = []
        do {
            try subscriber.publish(channel: channel, texts: texts) { outcomes += $0 }
        } catch {
            printOutcomes(outcomes)
            diagnostics.error(error.description)
            return error.exitStatus
        }
        return printOutcomes(outcomes)
    }

    /// `{"successful": [{"identifier", "index"}], "failed": [{"index", "error"}]}`; status 3 when some failed.
    @discardableResult
    private func printOutcomes(_ outcomes: [EventsPublisher.Outcome]) -> ExitCode {
        let successful = outcomes.filter { $0.error == nil }.map { outcome -> JSONValue in
            ["identifier": outcome.identifier.map(JSONValue.string) ?? .null, "index": .number(JSONNumber(outcome.index))]
        }
        let failed = outcomes.filter { $0.error != nil }.map { outcome -> JSONValue in
            ["index": .number(JSONNumber(outcome.index)), "error": .string(outcome.error ?? "")]
        }
        ResultPrinter(console: session.console, globals: session.globals).print(["successful": .array(successful), "failed": .array(failed)])
        return failed.isEmpty ? .success : .partial
    }
}
