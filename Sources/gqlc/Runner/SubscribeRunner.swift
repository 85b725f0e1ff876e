import GQLCore

/// `gqlc subscribe`: builds the core's ``SubscribeOperation`` (one model subscription per `--on`, or a custom
/// subscription) and streams its events.
extension SubscribeCommand {
    static func run(_ invocation: SubscribeInvocation, in context: RunContext) -> ExitCode {
        let (session, diagnostics) = (context.session, context.diagnostics)
        let file: SchemaFile?
        let schema: ModelSchema
        let operation: SubscribeOperation
        do throws(RunFailure) {
            (file, schema) = try session.models()
            do throws(SubscribeBuildError) {
                operation = try SubscribeOperation(
                    invocation.model, events: invocation.events, conditions: invocation.conditions,
                    arguments: RecordValues(assignments: invocation.arguments), includes: invocation.includes, builder: RequestBuilder(schema: schema))
            } catch {
                throw phrased(error, custom: invocation.isCustom)
            }
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        if session.globals.dryRun {
            let execution = RequestExecution(session: session, diagnostics: diagnostics, schemaFile: file)
            for subscription in operation.subscriptions { _ = execution.printDryRun(subscription.request) }
            return .success
        }
        var stream = SubscriptionStream(
            session: session, diagnostics: diagnostics, schemaFile: file, model: schema.models[invocation.model],
            realtimeEndpoint: invocation.realtimeEndpoint, count: invocation.count, duration: invocation.duration,
            reconnect: invocation.reconnect)
        let shape: LiveEventShape = session.globals.rawResponse ? .response : invocation.envelope ? .envelope(events: operation.changes) : .result
        return stream.run(operation.subscriptions, shape: shape)
    }

    /// The build error with the flag or command that fixes it; `custom`: a custom subscription's request.
    static func phrased(_ error: SubscribeBuildError, custom: Bool = false) -> RunFailure {
        switch error {
        case .request(let error): custom ? CustomOperationRunner.phrased(error) : .request(error)
        case .modelNeedsEvents: .usage(needsEvents.message)
        case .customSubscriptionWithEvents(let name):
            .usage("'\(name)' is a custom subscription: give it without \(on.flagName), with its arguments as ARG=VALUE")
        case .cannotWatch(let model, let reason):
            .usage(
                "cannot watch \(model) through its subscriptions: \(reason.description); "
                    + "\(ListCommand.interval.flagName) SECONDS watches it by listing again instead")
        case .filterObjectCannotWatch(let model):
            .usage(
                "cannot watch \(model) through its subscriptions: \(ListCommand.filter.flagName) has no subscription form; "
                    + "use \(ListCommand.whereOption.flagName), or \(ListCommand.interval.flagName) SECONDS watches it by listing again instead")
        }
    }
}
