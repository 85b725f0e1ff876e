import GQLCore

extension UpdateCommand: ModelCommand {
    /// `gqlc update`: one record by its key; `--input` without `--id`/`--key` is a bulk job, each record carrying its key.
    static func run(_ invocation: UpdateInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        var input: JSONValue?
        if let source = invocation.input {
            do throws(RunFailure) {
                var bulk = try runner.openBulkInput(source)
                if invocation.record == nil {
                    let operation = BulkWriteOperation(
                        update: invocation.model, assignments: invocation.assignments,
                        fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
                    return runner.runBulk(operation, settings: invocation.bulk, fields: invocation.fields, input: &bulk)
                }
                guard bulk.isSingle || bulk.isEmpty else {
                    throw RunFailure.usage(
                        "\(BulkOptions.input.flagName): \(bulk.name) holds several records; \(SharedOptions.id.flagName) and "
                            + "\(SharedOptions.key.flagName) pick one, so leave them out "
                            + "and let each record carry its key")
                }
                input = try runner.singleValue(bulk)
            } catch {
                return runner.usage(error)
            }
        }
        guard let record = invocation.record else {
            return runner.usage(RunFailure.usage(
                "update needs \(SharedOptions.id.flagName), \(SharedOptions.key.flagName) or \(BulkOptions.input.flagName)"))
        }
        var operation: UpdateOperation
        do {
            operation = try UpdateOperation(
                invocation.model, key: record.keyInput, values: RecordValues(assignments: invocation.assignments, input: input),
                condition: FilterInput(where: invocation.conditions), fields: ModelCommandRunner.selection(invocation.fields),
                expectedVersion: invocation.expectedVersion, builder: runner.builder)
        } catch {
            return runner.usage(error)
        }
        runner.recordOrigins(assignments: invocation.assignments, input: input != nil, conditions: invocation.conditions)
        return runner.change(&operation, model: invocation.model, conditions: invocation.conditions, fields: invocation.fields)
    }
}
