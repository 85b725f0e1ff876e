import GQLCore

/// `query` and `mutate`: a custom operation, built from the schema and printed as the model commands print.
protocol CustomOperationRunning: ModelCommand where Invocation == CustomOperationInvocation {}

extension CustomOperationRunning {
    /// A custom operation is about no model: no model's auth rules choose its auth mode.
    static func model(of invocation: CustomOperationInvocation) -> String? { nil }

    /// Builds the call from the schema, then runs it as `get` runs its operation.
    static func run(_ invocation: CustomOperationInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        var call: CustomOperationCall
        do throws(RunFailure) {
            let input = try invocation.input.map { source throws(RunFailure) in
                try JSONArgument.read(source, option: CustomOperationCommand.input.flagName, console: runner.session.console)
            }
            let values = RecordValues(assignments: invocation.assignments, input: input)
            do throws(RequestBuildError) {
                call = try CustomOperationCall(
                    invocation.name, kind: invocation.kind, arguments: values, includes: invocation.includes,
                    fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
            } catch {
                throw CustomOperationRunner.phrased(error)
            }
            runner.execution.columns = try runner.recordColumns { schema, format throws(RecordColumnsError) in
                try RecordColumns.columns(of: call.operation, in: schema, fields: invocation.fields, format: format)
            }
        } catch {
            return runner.usage(error)
        }
        if runner.globals.dryRun { return runner.execution.printDryRun(call.request) }
        call.followIncludedLists = invocation.followIncludedLists
        call.reportsEnvelope = runner.globals.rawResponse
        return runner.perform(printer: runner.recordPrinter(), progress: false) { context, events in call.run(in: context, events: events) }
    }
}

extension QueryCommand: CustomOperationRunning {}
extension MutateCommand: CustomOperationRunning {}

enum CustomOperationRunner {
    /// The core's error, with the command to use when the name is an operation of the other kind, or one the
    /// pulled schema left out.
    static func phrased(_ error: RequestBuildError) -> RunFailure {
        if case .operationLeftOut = error.underlying {
            return .usage(error.commandLineMessage + "; send it with gqlc raw (gqlc schema print shows its SDL)")
        }
        guard case .operationKindMismatch(let name, let actual, _) = error.underlying else { return .request(error) }
        let command = CustomOperation.Kind(rawValue: actual)?.command ?? SubscribeCommand.spec.name
        return .usage(error.commandLineMessage + "; run it with: gqlc \(command) \(name)")
    }
}

extension CustomOperation.Kind {
    /// The command that runs an operation of this kind: `query`, `mutate` or `subscribe`.
    var command: String {
        switch self {
        case .query: QueryCommand.spec.name
        case .mutation: MutateCommand.spec.name
        case .subscription: SubscribeCommand.spec.name
        }
    }
}
