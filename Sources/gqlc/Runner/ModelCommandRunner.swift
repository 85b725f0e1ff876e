import GQLCore

/// `get`, `list`, `create`, `update` and `delete`: the schema-driven commands.
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

    // MARK: Commands

    mutating func get(_ invocation: GetInvocation) -> ExitCode {
        var operation: GetOperation
        do {
            operation = try GetOperation(
                invocation.model, key: invocation.record.keyInput, includes: invocation.includes,
                fields: Self.selection(invocation.fields), builder: builder)
            execution.columns = try recordColumns(invocation.model, fields: invocation.fields)
        } catch {
            return usage(anyError: error)
        }
        if globals.dryRun { return execution.printDryRun(operation.request) }
        operation.followIncludedLists = invocation.followIncludedLists
        operation.includeDeleted = invocation.includeDeleted
        operation.reportsEnvelope = globals.rawResponse
        return perform(printer: recordPrinter(), progress: false) { context, events in operation.run(in: context, events: events) }
    }

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

    mutating func create(_ invocation: CreateInvocation) -> ExitCode {
        var input: JSONValue?
        if let source = invocation.input {
            do {
                var bulk = try openBulkInput(source)
                noteReadOnlyValues(invocation.model, in: bulk.ahead.first)
                guard bulk.isSingle else { return bulkCreate(invocation, input: &bulk) }
                input = try singleValue(bulk)
            } catch {
                return usage(error)
            }
        }
        var operation: CreateOperation
        do {
            let values = RecordValues(assignments: invocation.assignments, input: input)
            operation = try CreateOperation(invocation.model, values: values, fields: Self.selection(invocation.fields), builder: builder)
        } catch {
            return usage(error)
        }
        recordOrigins(assignments: invocation.assignments, input: input != nil)
        do {
            execution.columns = try recordColumns(invocation.model, fields: invocation.fields)
        } catch {
            return usage(error)
        }
        if globals.dryRun { return execution.printDryRun(operation.request) }
        // A create always carries its key (generated for `id`), so a retry cannot make a duplicate.
        operation.mayRetry = RetryPolicy.mayRetry(.mutation, retryMutations: globals.retryMutations, mutationIsIdempotent: true)
        operation.reportsEnvelope = globals.rawResponse
        return perform(printer: recordPrinter(), progress: false) { context, events in operation.run(in: context, events: events) }
    }

    mutating func update(_ invocation: UpdateInvocation) -> ExitCode {
        var input: JSONValue?
        if let source = invocation.input {
            do throws(RunFailure) {
                var bulk = try openBulkInput(source)
                if invocation.record == nil { return bulkUpdate(invocation, input: &bulk) }
                guard bulk.isSingle || bulk.isEmpty else {
                    throw RunFailure.usage(
                        "--input: \(bulk.name) holds several records; --id and --key pick one, so leave them out "
                            + "and let each record carry its key")
                }
                input = try singleValue(bulk)
            } catch {
                return usage(error)
            }
        }
        guard let record = invocation.record else { return usage(RunFailure.usage("update needs --id, --key or --input")) }
        var operation: UpdateOperation
        do {
            operation = try UpdateOperation(
                invocation.model, key: keyInput(record), values: RecordValues(assignments: invocation.assignments, input: input),
                condition: FilterInput(where: invocation.conditions), fields: Self.selection(invocation.fields),
                expectedVersion: invocation.expectedVersion, builder: builder)
        } catch {
            return usage(error)
        }
        recordOrigins(assignments: invocation.assignments, input: input != nil, conditions: invocation.conditions)
        return change(&operation, model: invocation.model, conditions: invocation.conditions, fields: invocation.fields)
    }

    mutating func delete(_ invocation: DeleteInvocation) -> ExitCode {
        if invocation.isQuery { return deleteMatching(invocation) }
        if let source = invocation.input {
            do {
                var bulk = try openBulkInput(source)
                return bulkDelete(invocation, input: &bulk)
            } catch {
                return usage(error)
            }
        }
        guard let record = invocation.record else { return usage(RunFailure.usage("delete needs --id, --key, --input or --where")) }
        var operation: DeleteOperation
        do {
            operation = try DeleteOperation(
                invocation.model, key: keyInput(record), condition: FilterInput(where: invocation.conditions),
                fields: Self.selection(invocation.fields), expectedVersion: invocation.cascade ? nil : invocation.expectedVersion,
                builder: builder)
        } catch {
            return usage(error)
        }
        recordOrigins(conditions: invocation.conditions)
        if invocation.cascade {
            noteReadings(invocation.model, invocation.conditions, option: SharedOptions.condition.flagName)
            return deleteCascading(invocation, request: operation.request)
        }
        return change(&operation, model: invocation.model, conditions: invocation.conditions, fields: invocation.fields)
    }

    /// An update or delete of one record: prints it for `--dry-run` (noting a version it would read first), else runs
    /// the operation.
    private mutating func change(
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
        conditions: [String] = [], option: String = "--if"
    ) {
        var origins: [String: String] = [:]
        if input { origins["input"] = "--input" }
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

    /// One note when `--input`'s first record has values for read-only fields (the implicit `createdAt` and
    /// `updatedAt` of a listing being imported): a create cannot set them, so they are left out and the server
    /// sets its own.
    func noteReadOnlyValues(_ model: String, in item: BulkInputItem?) {
        guard let item, case .object(let record)? = try? item.parse(), let model = schema.models[model] else { return }
        let given = model.fields.filter { field in field.isReadOnly && record[field.name].map { !$0.isNull } == true }
        guard !given.isEmpty else { return }
        let names = given.map(\.name).joined(separator: ", ")
        let (verb, pronoun) = given.count == 1 ? ("is", "it") : ("are", "them")
        diagnostics.error(
            "note: \(names) \(verb) read-only on \(model.name) (the server sets \(pronoun)); the input's values are left out")
    }

    /// Warns about `=` expressions that test one field for different values: AND-ed, they match nothing.
    func warnContradictions(_ model: String, _ conditions: [String], option: String) {
        guard let model = schema.models[model] else { return }
        for texts in FilterBuilder(schema: schema, model: model).contradictions(FilterInput(where: conditions)) {
            let quoted = texts.map { "'\($0)'" }.joined(separator: " and ")
            diagnostics.error(
                "warning: \(option) \(quoted) are AND-ed, and no record has both values; to match either, give "
                    + "--filter '{\"or\": [...]}'")
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

    func keyInput(_ record: RecordSelector) -> KeyInput { record.keyInput }

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

extension GetCommand: ModelCommand {
    static func run(_ invocation: GetInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        runner.get(invocation)
    }
}

extension ListCommand: ModelCommand {
    static func run(_ invocation: ListInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        runner.list(invocation)
    }
}

extension CreateCommand: ModelCommand {
    static func run(_ invocation: CreateInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        runner.create(invocation)
    }
}

extension UpdateCommand: ModelCommand {
    static func run(_ invocation: UpdateInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        runner.update(invocation)
    }
}

extension DeleteCommand: ModelCommand {
    static func run(_ invocation: DeleteInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        runner.delete(invocation)
    }
}
