import GQLCore

extension SyncCommand: ModelCommand {
    /// `gqlc sync`: pages through `sync<Plural>` and prints the records, then the `startedAt` to resume from.
    static func run(_ invocation: SyncInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        let model: Model
        do {
            model = try runner.builder.model(named: invocation.model)  // an unknown name gets a did-you-mean
        } catch {
            return runner.usage(error)
        }
        guard model.conflictDetection != nil else {
            return runner.usage(RunFailure.usage(
                "\(model.name) has no conflict detection, so it has no sync query; gqlc learns it from the Gen 1 project's "
                    + "transform.conf.json or a pulled schema, or \(GlobalOptions.conflictDetectionOption.flagName) on says so"))
        }
        let operation: SyncOperation
        let json: JSONValue?
        do {
            json = try runner.filterJSON(invocation.filter)
            operation = try SyncOperation(
                model.name, filter: FilterInput(where: invocation.conditions, json: json), since: invocation.since,
                builder: runner.builder)
            runner.execution.columns = try runner.recordColumns(model.name, fields: nil)
        } catch {
            return runner.usage(anyError: error)
        }
        runner.noteReadings(model.name, invocation.conditions, option: ListCommand.whereOption.flagName)
        runner.recordOrigins(
            filter: "filter", json: json.map { _ in ListCommand.filter.flagName }, conditions: invocation.conditions,
            option: ListCommand.whereOption.flagName)
        let globals = runner.globals
        if globals.dryRun { return runner.execution.printDryRun(operation.firstPage) }
        var printer = ResultPrinter(console: runner.session.console, globals: globals, columns: runner.execution.columns)
        if globals.decodeJSONFields { printer.decodingSchema = runner.schema }
        return runner.perform(printer: printer, progress: true, itemWord: "records") { context, events in
            operation.run(in: context, events: events)
        }
    }
}
