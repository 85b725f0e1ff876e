import GQLCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bulk `create`, `update` and `delete` (`--input`, `--where`) and `delete --cascade`: the core's ``BulkWriteOperation``
/// and ``CascadeDeleteOperation`` do the work over this run's one client; ``BulkRenderer`` and ``CascadeRenderer`` print it.
extension ModelCommandRunner {
    /// Opens `--input` and reads up to two items, so that one object can still be handled as a single command.
    func openBulkInput(_ source: InputSource) throws(RunFailure) -> BulkInputStream {
        var input: BulkInputStream
        do {
            switch source {
            case .file(let path): input = try BulkInputStream(path: path)
            case .standardInput where session.console.input is StandardInput:
                input = BulkInputStream(descriptor: STDIN_FILENO, name: source.name)
            case .standardInput: input = BulkInputStream(bytes: try session.console.input.readAll(), name: source.name)
            }
        } catch {
            throw RunFailure.usage("\(BulkOptions.input.flagName): \(error.description)")
        }
        do {
            try input.readAhead()
        } catch {
            throw RunFailure.usage("\(BulkOptions.input.flagName): \(source.name): \(error.description)")
        }
        return input
    }

    /// The single record of a one-object `--input`, parsed, with errors phrased as for any JSON file.
    func singleValue(_ input: BulkInputStream) throws(RunFailure) -> JSONValue {
        let flag = BulkOptions.input.flagName
        guard let item = input.ahead.first else { throw RunFailure.usage("\(flag): \(input.name): the input is empty; expected a JSON object") }
        if item.isOversized { throw RunFailure.usage("\(flag): \(input.name): \(BulkMessages.phrase(.oversized))") }
        do {
            return try item.parse()
        } catch {
            throw RunFailure.usage("\(flag): \(input.name): \(BulkItemProblem.invalidJSON(error))")
        }
    }

    mutating func bulkCreate(_ invocation: CreateInvocation, input: inout BulkInputStream) -> ExitCode {
        let operation = BulkWriteOperation(
            create: invocation.model, assignments: invocation.assignments, fields: Self.selection(invocation.fields), builder: builder)
        return runBulk(operation, settings: invocation.bulk, fields: invocation.fields, input: &input)
    }

    /// Each record carries its key (`update` without `--id`/`--key`).
    mutating func bulkUpdate(_ invocation: UpdateInvocation, input: inout BulkInputStream) -> ExitCode {
        let operation = BulkWriteOperation(
            update: invocation.model, assignments: invocation.assignments, fields: Self.selection(invocation.fields), builder: builder)
        return runBulk(operation, settings: invocation.bulk, fields: invocation.fields, input: &input)
    }

    mutating func bulkDelete(_ invocation: DeleteInvocation, input: inout BulkInputStream) -> ExitCode {
        let operation = BulkWriteOperation(delete: invocation.model, fields: Self.selection(invocation.fields), builder: builder)
        return runBulk(operation, settings: invocation.bulk, fields: invocation.fields, input: &input)
    }

    /// An update or delete of a model with conflict detection first reads every record's `_version`.
    private mutating func runBulk(
        _ operation: BulkWriteOperation, settings: BulkSettings, fields: [String]?, input: inout BulkInputStream
    ) -> ExitCode {
        var operation = operation
        if operation.operation != .create {
            switch bulkVersions(operation.model) {
            case .success(let table): operation.versions = table
            case .failure(let stop): return stop.status
            }
        }
        return runBulk(operation, settings: settings, fields: fields, inputName: input.name, readRest: input.isRegularFile) {
            () throws(BulkInputError) in try input.next()
        }
    }

    /// Runs (or, for `--dry-run`, prints) a bulk job over `next`'s items through `client` (this run's, resolved now
    /// when not given) and renders it; returns 0, 3, 1, 130, 2 when the input broke off, 7 or 141 when output failed.
    private func runBulk(
        _ operation: BulkWriteOperation, settings: BulkSettings, fields: [String]?, inputName: String, readRest: Bool,
        client given: GraphQLClient? = nil, next: () throws(BulkInputError) -> BulkInputItem?
    ) -> ExitCode {
        var operation = operation
        (operation.concurrency, operation.phrase) = (settings.concurrency, BulkMessages.phrase)
        let (columns, rejects): ([String], RejectsFile?)
        var execution = self.execution
        let client: GraphQLClient?
        do throws(RunFailure) {
            columns = try bulkColumns(operation.model, fields: fields)
            rejects = try settings.rejects.map { path throws(RunFailure) in try RejectsFile(path: path) }
            client = if globals.dryRun { nil } else if let given { given } else { try execution.client() }
        } catch {
            return usage(error)
        }
        let progress = globals.dryRun ? nil : ProgressReporter.make(console: session.console, globals: globals)
        let renderer = BulkRenderer(
            console: session.console, diagnostics: execution.diagnostics,
            records: BulkRecordPrinter(ResultPrinter(console: session.console, globals: globals, columns: columns)),
            progress: progress, rejects: rejects, describe: BulkMessages(model: operation.model, operation: operation.operation),
            inputName: inputName, dryRun: client == nil)
        guard let client else { return renderer.finish(operation.dryRun(next: next, events: renderer.render)) }
        // A failed write of stdout or --rejects stops the job from starting records, so that each one is accounted for.
        session.console.output.deferFailures()
        operation.workerClient = { [connect = operation.workerClient] client in
            var own = connect(client)
            progress?.keepNoticesAbove(&own)
            return own
        }
        let context = APIContext(schema: schema, client: client)
        return renderer.finish(operation.run(in: context, next: next, readRestWhenCancelled: readRest, events: renderer.render))
    }

    /// The columns each record is printed with (`--output table|tsv|raw`), after checking that `fields` are
    /// fields a create, update or delete returns; before anything is read or sent.
    func bulkColumns(_ model: String, fields: [String]?) throws(RunFailure) -> [String] {
        if let fields {
            do {
                try builder.checkMutationFields(model, fields: .paths(fields))
            } catch {
                throw RunFailure.request(error)
            }
        }
        return try recordColumns(model, fields: fields)
    }

    /// `delete --where`/`--filter`: lists what matches (the key fields only, as `list --count` does), then deletes it
    /// as a bulk job after a confirmation.
    mutating func deleteMatching(_ invocation: DeleteInvocation) -> ExitCode {
        let (model, requests): (String, ListRequests)
        model = invocation.model
        do {
            // How the deleted records will be printed is checked before anything is listed or asked.
            _ = try bulkColumns(model, fields: invocation.fields)
            let filter = FilterInput(where: invocation.matching, json: try filterJSON(invocation.filter))
            requests = try builder.listPages(model, filter: filter, fields: .keysOnly)
        } catch {
            return usage(anyError: error)
        }
        warnContradictions(model, invocation.matching, option: ListCommand.whereOption.flagName)
        let client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return usage(error)
        }
        // The listing's pages count on the progress line; the deletes start a line of their own.
        var listing = client
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        progress?.countPages(of: &listing)
        let (session, diagnostics) = (session, diagnostics)
        let matching = BulkWriteOperation.matching(
            requests, model: model, in: APIContext(schema: schema, client: client), listingClient: listing, plansOnly: globals.dryRun,
            confirm: { count in
                progress?.clear()
                let noun = "\(count) \(model) record\(count == 1 ? "" : "s")"
                return invocation.confirmed ? .yes : Confirmation.check(
                    "delete \(noun)?", refusal: "\(noun) match; pass \(GlobalOptions.yesOption.flagName) to delete them (standard "
                        + "input is not a terminal, so gqlc cannot ask)", session: session, diagnostics: diagnostics)
            },
            events: { event in
                progress?.clear()
                BulkRenderer.render(event, model: model, console: session.console, diagnostics: diagnostics)
            })
        progress?.clear()
        guard case .delete(let keys) = matching else {
            if case .stop(let kind) = matching { return ExitCode(kind) }
            return .success
        }
        let operation = BulkWriteOperation(delete: model, fields: Self.selection(invocation.fields), builder: builder)
        return runBulk(
            operation, settings: invocation.bulk, fields: invocation.fields, inputName: "", readRest: true, client: client,
            next: BulkInputItem.items(keys: keys))
    }

    /// `delete --cascade`: plans, shows (`--dry-run`), confirms and carries out a cascading delete.
    mutating func deleteCascading(_ invocation: DeleteInvocation, request: GraphQLRequest) -> ExitCode {
        let (model, key) = (invocation.model, request.inputKey(fields: keyFields(of: invocation.model)))
        let (client, columns): (GraphQLClient, [String])
        do {
            client = try execution.client()
            columns = try recordColumns(model, fields: invocation.fields)
        } catch {
            return usage(error)
        }
        var operation = CascadeDeleteOperation(model, key: key, fields: Self.selection(invocation.fields))
        operation.plansOnly = globals.dryRun
        let renderer = CascadeRenderer(
            console: session.console, diagnostics: diagnostics,
            printer: ResultPrinter(console: session.console, globals: globals, columns: columns), globals: globals, model: model, key: key)
        let (session, diagnostics, confirmed) = (session, diagnostics, invocation.confirmed)
        let kind = operation.run(in: APIContext(schema: schema, client: client), confirm: { plan in
            let (others, record) = (plan.count - 1, "\(model) \(BulkMessages.describe(key))")
            let noun = "record\(others == 1 ? "" : "s")"
            return confirmed ? .yes : Confirmation.check(
                "delete \(record) and the \(others) \(noun) under it?",
                refusal: "\(others) \(noun) would be deleted with \(record) (see \(GlobalOptions.dryRunOption.flagName)); pass "
                    + "\(GlobalOptions.yesOption.flagName) to delete them (standard input is not a terminal, so gqlc cannot ask)",
                session: session, diagnostics: diagnostics)
        }, events: renderer.render)
        return ExitCode(kind)
    }

    /// After a plain delete: which associations still point at the record (one `--limit 1` listing each).
    func warnOrphans(_ model: String, request: GraphQLRequest) {
        var execution = self.execution
        guard let client = try? execution.client() else { return }
        let key = request.inputKey(fields: keyFields(of: model))
        guard let orphans = try? CascadeDelete(builder: builder, client: client).orphans(model: model, key: key) else { return }
        for orphan in orphans {
            diagnostics.error(
                "warning: \(orphan.model) records (\(model).\(orphan.field)) are left pointing at the deleted \(model) "
                    + "\(BulkMessages.describe(key)); \(DeleteCommand.cascade.flagName) deletes them with it")
        }
    }
}
