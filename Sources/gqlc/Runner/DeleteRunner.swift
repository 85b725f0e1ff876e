import GQLCore

extension DeleteCommand: ModelCommand {
    /// `gqlc delete`: one record by its key (`--cascade`: with the records under it), the records of `--input`, or those
    /// `--where`/`--filter` match.
    static func run(_ invocation: DeleteInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        if invocation.isQuery { return deleteMatching(invocation, runner: &runner) }
        if let source = invocation.input {
            do {
                var bulk = try runner.openBulkInput(source)
                let operation = BulkWriteOperation(
                    delete: invocation.model, fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
                return runner.runBulk(operation, settings: invocation.bulk, fields: invocation.fields, input: &bulk)
            } catch {
                return runner.usage(error)
            }
        }
        guard let record = invocation.record else {
            return runner.usage(RunFailure.usage(
                "delete needs \(SharedOptions.id.flagName), \(SharedOptions.key.flagName), \(BulkOptions.input.flagName) or "
                    + "\(DeleteCommand.whereOption.flagName)"))
        }
        var operation: DeleteOperation
        do {
            operation = try DeleteOperation(
                invocation.model, key: record.keyInput, condition: FilterInput(where: invocation.conditions),
                fields: ModelCommandRunner.selection(invocation.fields),
                expectedVersion: invocation.cascade ? nil : invocation.expectedVersion, builder: runner.builder)
        } catch {
            return runner.usage(error)
        }
        runner.recordOrigins(conditions: invocation.conditions)
        if invocation.cascade {
            runner.noteReadings(invocation.model, invocation.conditions, option: SharedOptions.condition.flagName)
            return deleteCascading(invocation, from: operation, runner: &runner)
        }
        return runner.change(&operation, model: invocation.model, conditions: invocation.conditions, fields: invocation.fields)
    }

    /// `delete --where`/`--filter`: lists what matches (the key fields only, as `list --count` does), then deletes it
    /// as a bulk job after a confirmation.
    private static func deleteMatching(_ invocation: DeleteInvocation, runner: inout ModelCommandRunner) -> ExitCode {
        let (model, requests): (String, ListRequests)
        model = invocation.model
        do {
            // How the deleted records will be printed is checked before anything is listed or asked.
            _ = try runner.bulkColumns(model, fields: invocation.fields)
            let filter = FilterInput(where: invocation.matching, json: try runner.filterJSON(invocation.filter))
            requests = try runner.builder.listPages(model, filter: filter, fields: .keysOnly)
        } catch {
            return runner.usage(anyError: error)
        }
        runner.warnContradictions(model, invocation.matching, option: ListCommand.whereOption.flagName)
        let client: GraphQLClient
        do {
            client = try runner.execution.client()
        } catch {
            return runner.usage(error)
        }
        // The listing's pages count on the progress line; the deletes start a line of their own.
        let (session, globals) = (runner.session, runner.globals)
        let report = MatchingDeleteReport(
            model: model, progress: ProgressReporter.make(console: session.console, globals: globals), output: session.console.output,
            notes: session.console.error, diagnostics: runner.diagnostics, dryRun: GlobalOptions.dryRunOption.flagName)
        let matching = report.run(requests, in: APIContext(schema: runner.schema, client: client), plansOnly: globals.dryRun) {
            confirm($0.question, unconfirmed: $0.unconfirmed, invocation, runner: runner)
        }
        guard case .delete(let keys) = matching else {
            if case .stop(let kind) = matching { return ExitCode(kind) }
            return .success
        }
        let operation = BulkWriteOperation(deleteListed: model, fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
        return runner.runBulk(
            operation, settings: invocation.bulk, fields: invocation.fields, inputName: "", readRest: true, client: client,
            next: BulkInputItem.items(keys: keys))
    }

    /// Yes when `--yes` was given; else the terminal's answer to `question`, and where nobody can be asked, a refusal
    /// that says `why` the delete stops and names `--yes`.
    private static func confirm(
        _ question: String, unconfirmed why: String, _ invocation: DeleteInvocation, runner: ModelCommandRunner
    ) -> ConfirmationAnswer {
        invocation.confirmed ? .yes : Confirmation.check(
            question, refusal: "\(why); " + Confirmation.passYes(to: "delete them"), session: runner.session,
            diagnostics: runner.diagnostics)
    }

    /// `delete --cascade`: plans, shows (`--dry-run`), confirms and carries out a cascading delete.
    private static func deleteCascading(
        _ invocation: DeleteInvocation, from delete: DeleteOperation, runner: inout ModelCommandRunner
    ) -> ExitCode {
        let (client, columns): (GraphQLClient, [String])
        do {
            client = try runner.execution.client()
            columns = try runner.recordColumns(invocation.model, fields: invocation.fields)
        } catch {
            return runner.usage(error)
        }
        let (session, diagnostics, globals) = (runner.session, runner.diagnostics, runner.globals)
        var operation = CascadeDeleteOperation(from: delete, fields: ModelCommandRunner.selection(invocation.fields))
        operation.plansOnly = globals.dryRun
        let report = CascadeDeleteReport(
            printer: ResultPrinter(console: session.console, globals: globals, columns: columns), notes: session.console.error,
            diagnostics: diagnostics, dryRun: globals.dryRun ? GlobalOptions.dryRunOption.flagName : nil,
            progress: { ProgressReporter.make(console: session.console, globals: globals) }, model: operation.model, key: operation.key)
        let kind = operation.run(in: APIContext(schema: runner.schema, client: client), confirm: { plan in
            confirm(plan.question, unconfirmed: "\(plan.unconfirmed) (see \(GlobalOptions.dryRunOption.flagName))", invocation, runner: runner)
        }, events: report.write)
        return ExitCode(kind)
    }
}
