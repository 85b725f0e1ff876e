import GQLCore

extension GetCommand: ModelCommand {
    /// `gqlc get`: one record by its key, with the lists and records it includes.
    static func run(_ invocation: GetInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        var operation: GetOperation
        do {
            operation = try GetOperation(
                invocation.model, key: invocation.record.keyInput, includes: invocation.includes,
                fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
            runner.execution.columns = try runner.recordColumns(invocation.model, fields: invocation.fields)
        } catch {
            return runner.usage(anyError: error)
        }
        let globals = runner.globals
        if globals.dryRun { return runner.execution.printDryRun(operation.request) }
        operation.followIncludedLists = invocation.followIncludedLists
        operation.includeDeleted = invocation.includeDeleted
        operation.reportsEnvelope = globals.rawResponse
        return runner.perform(printer: runner.recordPrinter(), progress: false) { context, events in
            operation.run(in: context, events: events)
        }
    }
}
