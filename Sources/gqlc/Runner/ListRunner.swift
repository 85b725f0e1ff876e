import GQLCore

extension ModelCommandRunner {
    /// `gqlc list`: streams items page by page, following `nextToken` to the end or to `--limit`.
    mutating func list(_ invocation: ListInvocation) -> ExitCode {
        let requests: ListRequests
        let include: IncludeTree
        let json: JSONValue?
        do {
            json = try filterJSON(invocation.filter)
        } catch {
            return usage(error)
        }
        let fields: FieldSelection = invocation.count ? .keysOnly : Self.selection(invocation.fields)
        do {
            let filter = FilterInput(where: invocation.conditions, json: json)
            if let index = invocation.index {
                requests = try builder.indexPages(
                    invocation.model, index: index, filter: filter, sortDirection: invocation.sort,
                    include: invocation.includes, fields: fields)
            } else {
                requests = try builder.listPages(invocation.model, filter: filter, include: invocation.includes, fields: fields)
            }
            include = try builder.includeTree(invocation.model, paths: invocation.includes)
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
        if let mode = invocation.watch { return watch(invocation, mode: mode, requests: requests, columns: columns) }
        let start: ListPosition
        do {
            start = try invocation.nextToken.map { text throws(ResumeTokenError) in
                try ResumeToken.position(text, listing: requests.listingKey, pageSize: invocation.pageSize)
            } ?? ListPosition(token: nil, pageSize: invocation.pageSize)
        } catch {
            return usage(RunFailure.usage("invalid value for '--next-token': \(error.description)"))
        }
        let firstPage = requests.page(limit: start.pageSize, nextToken: start.token)
        if globals.dryRun { return execution.printDryRun(firstPage) }
        if globals.rawResponse {
            // The envelope of one page, exactly as the server sent it; its nextToken shows how to go on.
            return execution.send(firstPage, mayRetry: true, nullIsNotFound: false, notFoundMessage: "")
        }

        let (client, progress): (GraphQLClient, ProgressReporter?)
        do {
            (client, progress) = try listingClient()
        } catch {
            return usage(error)
        }
        var pager = ListPager(
            client: client, connectionPath: [requests.rootField], pageSize: invocation.pageSize, limit: invocation.limit,
            start: start, makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
        // Without a filter the server returns as many records as asked for, so --limit asks for no more.
        pager.pagesAreExact = requests.filter == nil
        if schema.models[invocation.model]?.conflictDetection != nil, !invocation.includeDeleted {
            pager.keep = { !ConflictDetection.isDeleted($0) }  // soft-deleted records are not listed, nor counted
        }
        if invocation.count { return count(pager, listing: requests.listingKey, progress: progress) }
        let follow = invocation.followIncludedLists && !include.isEmpty
        let builder = self.builder
        return stream(
            pager, listing: requests.listingKey, givenToken: invocation.nextToken, columns: columns, progress: progress
        ) { items throws(RunFailure) in
            guard follow else { return items }
            // Each record's included lists are paged to their end before the record is printed.
            let completed = try Self.followChildLists(
                .array(items), model: invocation.model, include: include, fields: fields, builder: builder, client: client,
                pageLimit: invocation.pageSizeGiven ? invocation.pageSize : Defaults.includedPageSize)
            return completed.arrayValue ?? items
        }
    }

    /// Items as one JSON array (opened at once, closed at the end) or NDJSON lines; `complete` finishes each
    /// page's records (their included lists) before they are printed.
    private func stream(
        _ pager: ListPager, listing: String, givenToken: String?, columns: [String], progress: ProgressReporter?,
        complete: ([JSONValue]) throws(RunFailure) -> [JSONValue]
    ) -> ExitCode {
        var printer = ResultPrinter(console: session.console, globals: globals, columns: columns)
        if globals.decodeJSONFields { printer.decodingSchema = schema }
        var output = printer.beginList()
        var closedPipe = false
        // Records printed to the same terminal as the progress line go above it.
        let sharesTerminal = progress != nil && session.console.outputIsTerminal
        let result = pager.run { items in
            let records = try complete(items)
            if sharesTerminal { progress?.clear() }
            defer { if sharesTerminal { progress?.advance(items: 0) } }
            guard output.write(records) else {
                closedPipe = true
                throw RunFailure.outputClosed
            }
        }
        progress?.clear()
        // Whatever was printed is closed (a JSON array, a held table); a listing that received no records prints
        // `[]` (or a table's header) only when it ended well, never a valid "no records" after a failed first page.
        let endedWell = switch result.stop {
        case .endOfList, .limitReached: true
        default: false
        }
        if !closedPipe, output.hasRecords || endedWell { output.finish() }
        return report(
            result, listing: listing, closedPipe: closedPipe, cancelled: pager.client.cancellation?.isCancelled == true,
            givenToken: givenToken)
    }

    /// `--count`: pages to the end and prints the number of items, only when every page was read.
    private func count(_ pager: ListPager, listing: String, progress: ProgressReporter?) -> ExitCode {
        let result = pager.run { _ in }
        progress?.clear()
        guard case .endOfList = result.stop else {
            if case .cancelled = result.stop {
                diagnostics.error("interrupted after counting \(result.delivered) records on \(result.pages) pages")
                return .interrupted
            }
            diagnostics.error("counted \(result.delivered) records before the listing stopped; the count is incomplete")
            return report(result, listing: listing, closedPipe: false, cancelled: false, givenToken: nil)
        }
        session.console.output.write("\(result.delivered)\n")
        return .success
    }

    /// Says why the listing stopped and, when it stopped early, where to resume.
    private func report(_ result: ListResult, listing: String, closedPipe: Bool, cancelled: Bool, givenToken: String?) -> ExitCode {
        var status = result.exitStatus
        switch result.stop {
        case .endOfList, .limitReached: break
        case .cancelled: diagnostics.error("interrupted after \(result.delivered) items")
        case .graphQLErrors(let errors), .partial(let errors): diagnostics.graphQLErrors(errors)
        case .failed(let error): diagnostics.error(error)
        case .consumerFailed where closedPipe: break
        case .consumerFailed where cancelled:
            // Ctrl-C while following a record's included lists: that page was not printed.
            diagnostics.error("interrupted after \(result.delivered) items")
            status = .interrupted
        case .consumerFailed(let error):
            if let failure = error as? RunFailure {
                diagnostics.failure(failure)
                status = failure.status
            }
        }
        switch result.resume {
        case .token, .withinPage:
            guard let token = result.resumeToken(listing: listing) else { break }
            if token == givenToken, Self.refusedFirstPage(result) {
                // Never hand back a token the server refused as if it were a place to resume.
                diagnostics.error(
                    "hint: the server refused the first page at --next-token; check that the token comes from a "
                        + "listing of the same model, filter and index, or start without it")
            } else {
                diagnostics.resumeToken(token)
            }
        case .start: break
        case .unavailable: diagnostics.error("the server repeated a nextToken; there is no safe point to resume from")
        case .complete: break
        }
        if closedPipe { return .success }
        return status
    }

    /// The server answered the first request with errors and nothing else.
    private static func refusedFirstPage(_ result: ListResult) -> Bool {
        guard result.pages == 1, result.delivered == 0, case .graphQLErrors = result.stop else { return false }
        return true
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
