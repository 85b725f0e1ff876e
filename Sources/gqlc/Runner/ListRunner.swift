import GQLCore

extension ListCommand: ModelCommand {
    /// `gqlc list`: streams records page by page, following `nextToken` to the end or to `--limit`.
    static func run(_ invocation: ListInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        var operation: ListOperation
        let json: JSONValue?
        do {
            json = try runner.filterJSON(invocation.filter)
            operation = try ListOperation(
                invocation.model, filter: FilterInput(where: invocation.conditions, json: json), index: invocation.index,
                sortDirection: invocation.sort, includes: invocation.includes, fields: ModelCommandRunner.selection(invocation.fields),
                counts: invocation.count, pageSize: invocation.pageSize, builder: runner.builder)
        } catch {
            return runner.usage(anyError: error)
        }
        runner.noteReadings(invocation.model, invocation.conditions, option: ListCommand.whereOption.flagName)
        runner.warnContradictions(invocation.model, invocation.conditions, option: ListCommand.whereOption.flagName)
        runner.recordOrigins(
            filter: "filter", json: json.map { _ in ListCommand.filter.flagName }, conditions: invocation.conditions,
            option: ListCommand.whereOption.flagName)
        let columns: [String]
        do {
            columns = invocation.count ? [] : try runner.recordColumns(invocation.model, fields: invocation.fields)
        } catch {
            return runner.usage(error)
        }
        if let mode = invocation.watch {
            return runWatch(invocation, mode: mode, requests: operation.requests, columns: columns, runner: &runner)
        }
        if let token = invocation.nextToken {
            do {
                try operation.resume(at: token)
            } catch {
                return runner.usage(RunFailure.usage("invalid value for '\(ListCommand.nextToken.flagName)': \(error.description)"))
            }
        }
        let globals = runner.globals
        if globals.dryRun { return runner.execution.printDryRun(operation.firstPage) }
        operation.limit = invocation.limit
        operation.followIncludedLists = invocation.followIncludedLists
        operation.includeDeleted = invocation.includeDeleted
        operation.reportsEnvelope = globals.rawResponse
        if invocation.pageSizeGiven { operation.includedPageSize = invocation.pageSize }
        // With --raw-response: the envelope of one page, exactly as the server sent it; its nextToken shows how to go on.
        var printer = ResultPrinter(console: runner.session.console, globals: globals, columns: globals.rawResponse ? [] : columns)
        if globals.decodeJSONFields && !globals.rawResponse { printer.decodingSchema = runner.schema }
        return runner.perform(printer: printer, progress: !globals.rawResponse) { context, events in
            operation.run(in: context, events: events)
        }
    }
}
