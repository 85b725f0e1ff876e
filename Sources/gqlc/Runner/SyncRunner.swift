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
        let requests: ListRequests
        let json: JSONValue?
        do {
            json = try filterJSON(invocation.filter)
            requests = try builder.syncPages(
                model.name, filter: FilterInput(where: invocation.conditions, json: json), lastSync: invocation.since)
            execution.columns = try recordColumns(model.name, fields: nil)
        } catch {
            return usage(anyError: error)
        }
        noteReadings(model.name, invocation.conditions, option: "--where")
        recordOrigins(filter: "filter", json: json.map { _ in "--filter" }, conditions: invocation.conditions, option: "--where")
        if globals.dryRun { return execution.printDryRun(requests.page(limit: Defaults.pageSize, nextToken: nil)) }
        let (client, progress): (GraphQLClient, ProgressReporter?)
        do {
            (client, progress) = try listingClient()
        } catch {
            return usage(error)
        }
        var pager = ListPager(
            client: client, connectionPath: [requests.rootField],
            makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
        // The first page's startedAt: what changes after the sync began, later pages' included, are read again next time.
        let started = StartedAt()
        pager.observeConnection = { connection in started.take(connection["startedAt"]) }
        var printer = ResultPrinter(console: session.console, globals: globals, columns: execution.columns)
        if globals.decodeJSONFields { printer.decodingSchema = schema }
        var output = printer.beginList()
        let result = pager.run { items in
            guard output.write(items) else { throw RunFailure.outputClosed }
        }
        progress?.clear()
        output.finish()
        switch result.stop {
        case .endOfList:
            // As `next token:` is: a line of its own on standard error, for scripts to read.
            if let value = started.value { session.console.error.write("next since: \(value)\n") }
            return .success
        case .graphQLErrors(let errors), .partial(let errors):
            diagnostics.graphQLErrors(errors)
        case .failed(let error):
            diagnostics.error(error)
        case .cancelled:
            diagnostics.error("interrupted after \(result.delivered) records")
        case .limitReached, .consumerFailed:
            break
        }
        diagnostics.error("the sync stopped before its end; run it again with the same --since")
        return result.exitStatus
    }
}

/// The first `startedAt` a sync's pages carried.
private final class StartedAt {
    private(set) var value: String?

    func take(_ field: JSONValue?) {
        guard value == nil, case .number(let number)? = field else { return }
        value = number.text
    }
}
