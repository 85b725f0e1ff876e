import GQLCore

extension ModelCommandRunner {
    /// `gqlc sync`: pages through `sync<Plural>` and prints the records, then the `startedAt` to resume from.
    mutating func sync(_ invocation: SyncInvocation) -> ExitCode {
        let model: Model
        do {
            model = try builder.model(named: invocation.model)  // an unknown name gets a did-you-mean
        } catch {
            return usage(error)
        }
        guard model.conflictDetection != nil else {
            return usage(RunFailure.usage(
                "\(model.name) has no conflict detection, so it has no sync query; gqlc learns it from the Gen 1 project's "
                    + "transform.conf.json or a pulled schema, or --conflict-detection on says so"))
        }
        let operation: SyncOperation
        let json: JSONValue?
        do {
            json = try filterJSON(invocation.filter)
            operation = try SyncOperation(
                model.name, filter: FilterInput(where: invocation.conditions, json: json), since: invocation.since, builder: builder)
            execution.columns = try recordColumns(model.name, fields: nil)
        } catch {
            return usage(anyError: error)
        }
        noteReadings(model.name, invocation.conditions, option: "--where")
        recordOrigins(filter: "filter", json: json.map { _ in "--filter" }, conditions: invocation.conditions, option: "--where")
        if globals.dryRun { return execution.printDryRun(operation.firstPage) }
        var printer = ResultPrinter(console: session.console, globals: globals, columns: execution.columns)
        if globals.decodeJSONFields { printer.decodingSchema = schema }
        return perform(printer: printer, progress: true, itemWord: "records") { context, events in
            operation.run(in: context, events: events)
        }
    }
}
