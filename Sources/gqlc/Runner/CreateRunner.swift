import GQLCore

extension CreateCommand: ModelCommand {
    /// `gqlc create`: one record from assignments or a one-object `--input`; several `--input` records are a bulk job.
    static func run(_ invocation: CreateInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        var input: JSONValue?
        if let source = invocation.input {
            do {
                var bulk = try runner.openBulkInput(source)
                if let note = bulk.readOnlyValuesNote(for: runner.schema.models[invocation.model]) { runner.diagnostics.error(note) }
                guard bulk.isSingle else {
                    let operation = BulkWriteOperation(
                        create: invocation.model, assignments: invocation.assignments,
                        fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
                    return runner.runBulk(operation, settings: invocation.bulk, fields: invocation.fields, input: &bulk)
                }
                input = try runner.singleValue(bulk)
            } catch {
                return runner.usage(error)
            }
        }
        var operation: CreateOperation
        do {
            let values = RecordValues(assignments: invocation.assignments, input: input)
            operation = try CreateOperation(
                invocation.model, values: values, fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
        } catch {
            return runner.usage(error)
        }
        runner.recordOrigins(assignments: invocation.assignments, input: input != nil)
        do {
            runner.execution.columns = try runner.recordColumns(invocation.model, fields: invocation.fields)
        } catch {
            return runner.usage(error)
        }
        let globals = runner.globals
        if globals.dryRun { return runner.execution.printDryRun(operation.request) }
        operation.retriesMutations = globals.retryMutations
        operation.reportsEnvelope = globals.rawResponse
        return runner.perform(printer: runner.recordPrinter(), progress: false) { context, events in
            operation.run(in: context, events: events)
        }
    }
}
