import GQLCore

/// `gqlc subscribe`: builds one model subscription per `--on` and streams their events.
struct SubscribeRunner {
    let session: Session
    let diagnostics: Diagnostics

    func run(_ invocation: SubscribeInvocation) -> ExitCode {
        let file: SchemaFile?
        var model: Model?
        var subscriptions: [RealtimeSubscription] = []
        var events: [String: ChangeKind] = [:]
        do throws(RunFailure) {
            let schema: ModelSchema
            (file, schema) = try session.models()
            let builder = RequestBuilder(schema: schema)
            model = builder.schema.models[invocation.model]
            if invocation.isCustom {
                subscriptions.append(try Self.custom(invocation, builder: builder))
            }
            for event in invocation.events {
                do {
                    let request = try builder.subscription(
                        invocation.model, event: event, filter: FilterInput(where: invocation.conditions),
                        include: invocation.includes)
                    let name = request.decodePath.first ?? event.rawValue
                    subscriptions.append(RealtimeSubscription(name: name, request: request))
                    events[name] = ChangeKind(event)
                } catch {
                    let isCustom = builder.schema.customOperations.contains { $0.kind == .subscription && $0.name == invocation.model }
                    guard case .unknownModel = error, isCustom else { throw .request(error) }
                    throw .usage("'\(invocation.model)' is a custom subscription: give it without \(SubscribeCommand.on.flagName), with its arguments as ARG=VALUE")
                }
            }
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        if session.globals.dryRun {
            let execution = RequestExecution(session: session, diagnostics: diagnostics, schemaFile: file)
            for subscription in subscriptions { _ = execution.printDryRun(subscription.request) }
            return .success
        }
        var stream = SubscriptionStream(
            session: session, diagnostics: diagnostics, schemaFile: file, model: model, realtimeEndpoint: invocation.realtimeEndpoint,
            count: invocation.count, duration: invocation.duration, reconnect: invocation.reconnect,
            decodePath: { $0.request.decodePath })
        let shape: EventShape = session.globals.rawResponse ? .response : invocation.envelope ? .envelope(events: events) : .result
        return stream.run(subscriptions, shape: shape)
    }
}

extension SubscribeRunner {
    /// A custom subscription of the schema, with its arguments.
    static func custom(_ invocation: SubscribeInvocation, builder: RequestBuilder) throws(RunFailure) -> RealtimeSubscription {
        if builder.schema.models[invocation.model] != nil {
            throw .usage(SubscribeCommand.needsEvents.message)
        }
        do {
            let request = try builder.custom(
                invocation.model, kind: .subscription, arguments: RecordValues(assignments: invocation.arguments),
                include: invocation.includes)
            return RealtimeSubscription(name: invocation.model, request: request)
        } catch {
            throw ModelCommandRunner.phrased(error)
        }
    }
}

extension SubscribeCommand {
    static func run(_ invocation: SubscribeInvocation, in context: RunContext) -> ExitCode {
        SubscribeRunner(session: context.session, diagnostics: context.diagnostics).run(invocation)
    }
}
