import GQLCore

extension ModelCommandRunner {
    /// `gqlc list`: streams items page by page, following `nextToken` to the end or to `--limit`.
    mutating func list(_ invocation: ListInvocation) -> ExitCode {
        let requests: ListRequests
        let json: JSONValue?
        do {
            json = try filterJSON(invocation.filter)
        } catch {
            return usage(error)
        }
        do {
            let filter = FilterInput(where: invocation.conditions, json: json)
            if let index = invocation.index {
                requests = try builder.indexPages(
                    invocation.model, index: index, filter: filter, sortDirection: invocation.sort,
                    include: invocation.includes)
            } else {
                requests = try builder.listPages(invocation.model, filter: filter, include: invocation.includes)
            }
        } catch {
            return usage(error)
        }
        let firstLimit = min(invocation.pageSize, invocation.limit ?? invocation.pageSize)
        let firstPage = requests.page(limit: firstLimit, nextToken: invocation.nextToken)
        if globals.dryRun { return execution.printDryRun(firstPage) }
        if globals.rawResponse {
            // The envelope of one page, exactly as the server sent it; its nextToken shows how to go on.
            return execution.send(firstPage, mayRetry: true, nullIsNotFound: false, notFoundMessage: "")
        }

        let client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return usage(error)
        }
        let pager = ListPager(
            client: client, connectionPath: [requests.rootField], pageSize: invocation.pageSize, limit: invocation.limit,
            startToken: invocation.nextToken, makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
        return stream(pager)
    }

    /// Items as one JSON array (opened at once, closed at the end) or NDJSON lines.
    private func stream(_ pager: ListPager) -> ExitCode {
        let printer = ResultPrinter(console: session.console, globals: globals)
        var output = printer.beginList()
        var closedPipe = false
        let result = pager.run { items in
            guard output.write(items) else {
                closedPipe = true
                throw RunFailure("standard output was closed")
            }
        }
        // However the listing stopped (an error on the first page, Ctrl-C before it), stdout is valid JSON: `[]` at least.
        if !closedPipe { output.finish() }
        return report(result, closedPipe: closedPipe, startToken: pager.startToken)
    }

    /// Says why the listing stopped and, when it stopped early, where to resume.
    private func report(_ result: ListResult, closedPipe: Bool, startToken: String?) -> ExitCode {
        switch result.stop {
        case .endOfList, .limitReached: break
        case .cancelled: diagnostics.error("interrupted after \(result.delivered) items")
        case .graphQLErrors(let errors), .partial(let errors): diagnostics.graphQLErrors(errors)
        case .failed(let error): diagnostics.error(error)
        case .consumerFailed: break
        }
        switch result.resume {
        case .token(let token) where token == startToken && Self.refusedFirstPage(result):
            // Never hand back a token the server refused as if it were a place to resume.
            diagnostics.error(
                "hint: the server refused the first page at --next-token; check that the token comes from a "
                    + "listing of the same model, filter and index, or start without it")
        case .token(let token): diagnostics.resumeToken(token)
        case .start where result.delivered == 0 && result.exitStatus != .success: break
        case .start: diagnostics.error("the first page was not fully printed; run the command again to resume")
        case .unavailable: diagnostics.error("the server repeated a nextToken; there is no safe point to resume from")
        case .complete: break
        }
        if closedPipe { return .success }
        return result.exitStatus
    }

    /// The server answered the first request with errors and nothing else.
    private static func refusedFirstPage(_ result: ListResult) -> Bool {
        guard result.pages == 1, result.delivered == 0, case .graphQLErrors = result.stop else { return false }
        return true
    }

    /// `--filter JSON`, `--filter @FILE` or `--filter @-`.
    private func filterJSON(_ argument: FilterArgument?) throws(RunFailure) -> JSONValue? {
        guard let argument else { return nil }
        switch argument {
        case .json(let value): return value
        case .file(let source): return try JSONArgument.read(source, option: "--filter", console: session.console)
        }
    }
}
