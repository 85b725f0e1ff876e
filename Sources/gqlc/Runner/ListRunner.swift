import GQLCore

extension ModelCommandRunner {
    /// `gqlc list`: streams records page by page, following `nextToken` to the end or to `--limit`.
    mutating func list(_ invocation: ListInvocation) -> ExitCode {
        var operation: ListOperation
        let json: JSONValue?
        do {
            json = try filterJSON(invocation.filter)
        } catch {
            return usage(error)
        }
        do {
            operation = try ListOperation(
                invocation.model, filter: FilterInput(where: invocation.conditions, json: json), index: invocation.index,
                sortDirection: invocation.sort, includes: invocation.includes, fields: Self.selection(invocation.fields),
                counts: invocation.count, pageSize: invocation.pageSize, builder: builder)
        } catch {
            return usage(error)
        }
        noteReadings(invocation.model, invocation.conditions, option: "--where")
        warnContradictions(invocation.model, invocation.conditions, option: "--where")
        recordOrigins(filter: "filter", json: json.map { _ in "--filter" }, conditions: invocation.conditions, option: "--where")
        let columns: [String]
        do {
            columns = invocation.count ? [] : try recordColumns(invocation.model, fields: invocation.fields)
        } catch {
            return usage(error)
        }
        if let mode = invocation.watch { return watch(invocation, mode: mode, requests: operation.requests, columns: columns) }
        if let token = invocation.nextToken {
            do {
                try operation.resume(at: token)
            } catch {
                return usage(RunFailure.usage("invalid value for '--next-token': \(error.description)"))
            }
        }
        if globals.dryRun { return execution.printDryRun(operation.firstPage) }
        operation.limit = invocation.limit
        operation.followIncludedLists = invocation.followIncludedLists
        operation.includeDeleted = invocation.includeDeleted
        operation.reportsEnvelope = globals.rawResponse
        if invocation.pageSizeGiven { operation.includedPageSize = invocation.pageSize }
        // With --raw-response: the envelope of one page, exactly as the server sent it; its nextToken shows how to go on.
        var printer = ResultPrinter(console: session.console, globals: globals, columns: globals.rawResponse ? [] : columns)
        if globals.decodeJSONFields && !globals.rawResponse { printer.decodingSchema = schema }
        return perform(printer: printer, progress: !globals.rawResponse) { context, events in
            operation.run(in: context, events: events)
        }
    }

    /// The client a listing pages through and, when stderr is a terminal, the progress line its pages count on.
    mutating func listingClient() throws(RunFailure) -> (GraphQLClient, ProgressReporter?) {
        var client = try execution.client()
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        progress?.countPages(of: &client)
        return (client, progress)
    }

    /// `--filter JSON`, `--filter @FILE` or `--filter @-`.
    func filterJSON(_ argument: FilterArgument?) throws(RunFailure) -> JSONValue? {
        guard let argument else { return nil }
        switch argument {
        case .json(let value): return value
        case .file(let source): return try JSONArgument.read(source, option: "--filter", console: session.console)
        }
    }
}
