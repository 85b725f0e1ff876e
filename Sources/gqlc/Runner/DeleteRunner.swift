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
            return deleteCascading(invocation, request: operation.request, runner: &runner)
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
        var listing = client
        let (session, diagnostics, globals) = (runner.session, runner.diagnostics, runner.globals)
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        progress?.countPages(of: &listing)
        let matching = BulkWriteOperation.matching(
            requests, model: model, in: APIContext(schema: runner.schema, client: client), listingClient: listing,
            plansOnly: globals.dryRun,
            confirm: { count in
                progress?.clear()
                let noun = "\(count) \(model) record\(count == 1 ? "" : "s")"
                return invocation.confirmed ? .yes : Confirmation.check(
                    "delete \(noun)?", refusal: "\(noun) match; " + Confirmation.passYes(to: "delete them"), session: session,
                    diagnostics: diagnostics)
            },
            events: { event in
                progress?.clear()
                event.write(
                    model: model, output: session.console.output, notes: session.console.error, diagnostics: diagnostics,
                    dryRun: GlobalOptions.dryRunOption.flagName)
            })
        progress?.clear()
        guard case .delete(let keys) = matching else {
            if case .stop(let kind) = matching { return ExitCode(kind) }
            return .success
        }
        let operation = BulkWriteOperation(delete: model, fields: ModelCommandRunner.selection(invocation.fields), builder: runner.builder)
        return runner.runBulk(
            operation, settings: invocation.bulk, fields: invocation.fields, inputName: "", readRest: true, client: client,
            next: BulkInputItem.items(keys: keys))
    }

    /// `delete --cascade`: plans, shows (`--dry-run`), confirms and carries out a cascading delete.
    private static func deleteCascading(
        _ invocation: DeleteInvocation, request: GraphQLRequest, runner: inout ModelCommandRunner
    ) -> ExitCode {
        let (model, key) = (invocation.model, request.inputKey(fields: runner.keyFields(of: invocation.model)))
        let (client, columns): (GraphQLClient, [String])
        do {
            client = try runner.execution.client()
            columns = try runner.recordColumns(model, fields: invocation.fields)
        } catch {
            return runner.usage(error)
        }
        let (session, diagnostics, globals, confirmed) = (runner.session, runner.diagnostics, runner.globals, invocation.confirmed)
        var operation = CascadeDeleteOperation(model, key: key, fields: ModelCommandRunner.selection(invocation.fields))
        operation.plansOnly = globals.dryRun
        let report = CascadeDeleteReport(
            printer: ResultPrinter(console: session.console, globals: globals, columns: columns), notes: session.console.error,
            diagnostics: diagnostics, dryRun: globals.dryRun ? GlobalOptions.dryRunOption.flagName : nil,
            progress: { ProgressReporter.make(console: session.console, globals: globals) }, model: model, key: key)
        let kind = operation.run(in: APIContext(schema: runner.schema, client: client), confirm: { plan in
            confirmed ? .yes : Confirmation.check(
                plan.question,
                refusal: "\(plan.unconfirmed) (see \(GlobalOptions.dryRunOption.flagName)); " + Confirmation.passYes(to: "delete them"),
                session: session, diagnostics: diagnostics)
        }, events: report.write)
        return ExitCode(kind)
    }
}
