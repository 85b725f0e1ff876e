import GQLCore

/// What the schema-driven commands share: the session, the schema loaded once, the request builder and the execution
/// settings, with `perform` and the helpers several commands use. Each command's own run is its `ModelCommand`
/// conformance, in `Runner/FooRunner.swift`.
struct ModelCommandRunner {
    let session: Session
    let schema: ModelSchema
    let builder: RequestBuilder
    var execution: RequestExecution

    /// Loads the schema, then runs `body`; a schema problem is a one-line error with status 2.
    static func prepare(_ context: RunContext, _ body: (inout ModelCommandRunner) -> ExitCode) -> ExitCode {
        let (session, diagnostics) = (context.session, context.diagnostics)
        do {
            let (file, schema) = try session.models()
            var runner = ModelCommandRunner(
                session: session, schema: schema, builder: RequestBuilder(schema: schema),
                execution: RequestExecution(session: session, diagnostics: diagnostics, schemaFile: file))
            return body(&runner)
        } catch {
            diagnostics.failure(error)
            return error.status
        }
    }

    var diagnostics: Diagnostics { execution.diagnostics }
    var globals: GlobalOptions { session.globals }

    /// The model's primary-key field names, in key order (none for an unknown model: the builder refuses it).
    func keyFields(of model: String) -> [String] { schema.models[model]?.primaryKey.fields ?? [] }

    // MARK: Running

    /// The printer of a single record (or envelope), in the columns chosen.
    func recordPrinter() -> ResultPrinter {
        var printer = ResultPrinter(console: session.console, globals: globals, columns: execution.columns)
        if globals.decodeJSONFields && !globals.rawResponse { printer.decodingSchema = execution.schemaFile?.schema }
        return printer
    }

    /// Runs a core operation over this run's context (its client resolved now, once), rendering its events with
    /// `printer` (and a progress line when `progress` and the terminal allow; `itemWord` is what an interruption
    /// counts), and maps how it ended to an exit code.
    mutating func perform(
        printer: ResultPrinter, progress: Bool, itemWord: String = "items", _ operation: (APIContext, OperationEventSink) -> ResultKind
    ) -> ExitCode {
        var client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return usage(error)
        }
        let reporter = progress ? ProgressReporter.make(console: session.console, globals: globals) : nil
        reporter?.countPages(of: &client)
        var renderer = OperationRenderer(printer: printer, diagnostics: diagnostics, console: session.console, progress: reporter)
        renderer.itemWord = itemWord
        return ExitCode(operation(APIContext(schema: schema, client: client)) { event in renderer.render(event) })
    }

    /// An update or delete of one record: prints it for `--dry-run` (noting a version it would read first), else runs
    /// the operation.
    mutating func change(
        _ operation: inout some RecordChangeOperation, model: String, conditions: [String], fields: [String]?
    ) -> ExitCode {
        if operation.readsVersion && globals.dryRun {
            diagnostics.error("note: \(model) has conflict detection: the update or delete is sent with the record's "
                + "_version, read with a get first (\(SharedOptions.expectedVersion.usageForm) gives it instead)")
        }
        noteReadings(model, conditions, option: SharedOptions.condition.flagName)
        do {
            execution.columns = try recordColumns(model, fields: fields)
        } catch {
            return usage(error)
        }
        if globals.dryRun { return execution.printDryRun(operation.request) }
        operation.retriesMutations = globals.retryMutations
        operation.reportsEnvelope = globals.rawResponse
        let change = operation
        return perform(printer: recordPrinter(), progress: false) { context, events in change.run(in: context, events: events) }
    }

    // MARK: Helpers

    /// Records which argument set which part of `$input` and of the filter or condition variable, so that
    /// a server's refusal of a value names it.
    mutating func recordOrigins(
        assignments: [String] = [], input: Bool = false, filter: String = "condition", json: String? = nil,
        conditions: [String] = [], option: String = SharedOptions.condition.flagName
    ) {
        var origins: [String: String] = [:]
        if input { origins["input"] = BulkOptions.input.flagName }
        for text in assignments {
            if let assignment = try? FieldAssignment.parse(text) { origins["input.\(assignment.field)"] = "'\(text)'" }
        }
        let parts = (json.map { [$0] } ?? []) + conditions.map { "\(option) '\($0)'" }
        if parts.count == 1 {
            origins[filter] = parts[0]
        } else {
            for (index, part) in parts.enumerated() { origins["\(filter).and[\(index)]"] = part }
        }
        execution.diagnostics.origins = VariableOrigins(origins)
    }

    /// Warns about `=` expressions that test one field for different values: AND-ed, they match nothing.
    func warnContradictions(_ model: String, _ conditions: [String], option: String) {
        guard let model = schema.models[model] else { return }
        for texts in FilterBuilder(schema: schema, model: model).contradictions(FilterInput(where: conditions)) {
            diagnostics.error(FilterBuilder.contradictionWarning(texts, option: option, naming: \.flagName))
        }
    }

    /// Under `--verbose`, what gqlc read differently from the expressions given (a date taken as the start
    /// of that day in UTC), each line naming the option.
    func noteReadings(_ model: String, _ conditions: [String], option: String) {
        guard globals.verbose, let model = schema.models[model] else { return }
        for note in FilterBuilder(schema: schema, model: model).notes(FilterInput(where: conditions)) {
            session.console.error.write("* \(option) \(note)\n")
        }
    }

    /// The columns of `--output table|tsv|raw` (``RecordColumns``): the `--fields` paths as given, else the model's
    /// own scalar and enum fields. `raw` needs exactly one scalar field.
    func recordColumns(_ modelName: String, fields: [String]?, format: GlobalOptions.OutputFormat? = nil) throws(RunFailure) -> [String] {
        try recordColumns { schema, output throws(RecordColumnsError) in
            try RecordColumns.columns(of: modelName, in: schema, fields: fields, format: format ?? output)
        }
    }

    /// The columns `columns` chooses from the schema for the run's output format, its refusal phrased with the flags.
    func recordColumns(
        _ columns: (ModelSchema, GlobalOptions.OutputFormat) throws(RecordColumnsError) -> [String]
    ) throws(RunFailure) -> [String] {
        do throws(RecordColumnsError) {
            return try columns(schema, globals.output)
        } catch {
            throw .usage(error.commandLineMessage)
        }
    }

    /// `--filter JSON`, `--filter @FILE` or `--filter @-`.
    func filterJSON(_ argument: FilterArgument?) throws(RunFailure) -> JSONValue? {
        guard let argument else { return nil }
        switch argument {
        case .json(let value): return value
        case .file(let source): return try JSONArgument.read(source, option: ListCommand.filter.flagName, console: session.console)
        }
    }

    func usage(_ error: RequestBuildError) -> ExitCode { usage(.request(error)) }

    /// A failure before anything was sent, of whichever kind: a bad argument, file or request.
    func usage(anyError error: any Error) -> ExitCode {
        switch error {
        case let failure as RunFailure: return usage(failure)
        case let request as RequestBuildError: return usage(request)
        default: return usage(RunFailure.usage(commandLineMessage(error)))
        }
    }

    func usage(_ failure: RunFailure) -> ExitCode {
        diagnostics.failure(failure)
        return failure.status
    }

    /// `--fields` as the core's selection.
    static func selection(_ paths: [String]?) -> FieldSelection { paths.map { .paths($0) } ?? .all }
}

/// A command run against the model schema: the schema is loaded first, the auth rules of the model the command is
/// about choose the auth mode, then the runner's method for the command runs. A command must say its model (an
/// invocation that is a ``ModelInvocation`` does), or that it has none: forgetting does not compile.
protocol ModelCommand: CommandDefinition {
    /// The model whose auth rules choose the auth mode; nil for a command about no model (a custom operation).
    static func model(of invocation: Invocation) -> String?
    static func run(_ invocation: Invocation, with runner: inout ModelCommandRunner) -> ExitCode
}

extension ModelCommand where Invocation: ModelInvocation {
    static func model(of invocation: Invocation) -> String? { invocation.model }
}

/// An invocation about one model, whose auth rules choose the auth mode its requests are sent with.
protocol ModelInvocation {
    var model: String { get }
}

extension GetInvocation: ModelInvocation {}
extension ListInvocation: ModelInvocation {}
extension CreateInvocation: ModelInvocation {}
extension UpdateInvocation: ModelInvocation {}
extension DeleteInvocation: ModelInvocation {}

extension ModelCommand {
    static func run(_ invocation: Invocation, in context: RunContext) -> ExitCode {
        ModelCommandRunner.prepare(context) { runner in
            runner.execution.model = model(of: invocation).flatMap { runner.schema.models[$0] }
            return run(invocation, with: &runner)
        }
    }
}

// MARK: Whole-app jobs (snapshot, restore, copy)

extension ModelCommandRunner {
    /// The run's whole-app job context (a client per model, resolved by the session's one resolver); nothing resolved yet.
    var jobContext: JobContext { session.jobContext(schema: schema, file: execution.schemaFile) }

    /// A snapshot error's line; a directory holding one names the flag that finishes it.
    func usage(_ error: SnapshotError) -> ExitCode {
        guard case .notEmpty(let directory) = error else { return usage(RunFailure.usage(error.description)) }
        return usage(RunFailure.usage(
            "\(directory) already holds a snapshot (\(SnapshotManifest.fileName)); pass \(SnapshotCommand.resume.flagName) "
                + "to finish it, or choose another directory"))
    }

    /// Lines on standard output (a dry run's plan), nothing for none.
    func writeLines(_ lines: [String]) -> ExitCode {
        session.console.output.write(lines.map { $0 + "\n" }.joined())
        return .success
    }

    /// The report of a restore's or copy's events: failures on stderr, a summary line per model, the progress line.
    func restoreReport() -> RestoreReport {
        let diagnostics = self.diagnostics
        return RestoreReport(
            progress: ProgressReporter.make(console: session.console, globals: globals), notes: session.console.error,
            say: { diagnostics.error($0) }, phrasing: CommandLineBulkPhrasing())
    }

    /// How a restore or copy ended (`what`: which one): a client that could not be made, else what `report` says of it.
    func restoreStatus(_ outcome: RestoreOutcome, report: RestoreReport, finish what: String) -> ExitCode {
        let ending = report.finish(
            outcome, interrupted: "re-run with \(RestoreCommand.skipExisting.flagName) to finish the \(what)",
            rejects: RestoreCommand.rejects.flagName)
        if let error = outcome.unavailable { return usage(RunFailure(error)) }
        return ending.rejectsFailed ? .writeFailed : ExitCode(ending.kind)
    }

    /// `--map-owner FILE`: a JSON object of strings.
    func ownerMapping(_ source: InputSource) throws(RunFailure) -> [String: String] {
        do throws(OwnerMapError) {
            return try RestoreOptions.ownerMap(from: source, input: session.console.input)
        } catch {
            throw RunFailure.usage("\(RestoreCommand.mapOwner.flagName): \(error)")
        }
    }
}

extension Session {
    /// A whole-app job's context over `schema` (a client per model, resolved by this session's one resolver).
    func jobContext(schema: ModelSchema, file: SchemaFile?) -> JobContext {
        let errors = console.error
        return JobContext(resolver: resolver, schema: schema, file: file) { failure in errors.write("gqlc: \(RunFailure(failure).message)\n") }
    }
}
