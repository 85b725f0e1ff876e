import GQLCore

/// Carries out parsed commands against the core: schema, request, transport, output, exit status.
struct LiveCommandRunner: CommandRunner {
    /// Cancelled by SIGINT/SIGTERM (see ``SignalTrap``).
    let cancellation: CancellationFlag

    func run(_ run: CommandRun, console: Console) -> ExitCode {
        var globals = run.globals
        let diagnostics = Diagnostics(sink: console.error)
        do {
            try SecretArguments.resolve(&globals, console: console)
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        let session = Session(globals: globals, console: console, cancellation: cancellation)
        WriteGuard.noteEnvironment(globals, console: console)
        if let what = run.command.writes, let status = WriteGuard.check(what, session: session, diagnostics: diagnostics) {
            return status
        }
        return run.command.run(in: RunContext(session: session, diagnostics: diagnostics))
    }
}

/// What a command runs with: the session (settings, console, cancellation) and where errors go.
struct RunContext {
    let session: Session
    let diagnostics: Diagnostics
}

/// Sends one request and prints its result: `raw` and the model commands not yet moved to core operations
/// (create, update, delete).
struct RequestExecution {
    let session: Session
    var diagnostics: Diagnostics
    let schemaFile: SchemaFile?
    /// The columns of a table, TSV or raw output (see ``ModelCommandRunner/recordColumns(_:fields:)``).
    var columns: [String] = []
    /// The model the request is about, whose auth rules choose the auth mode; nil for `raw`.
    var model: Model?

    /// Prints the body for `--dry-run`: compact, as POSTed, unless `--pretty` is given.
    func printDryRun(_ request: GraphQLRequest) -> ExitCode {
        var writer = JSONWriter(style: session.globals.layout == .pretty ? .pretty : .compact)
        writer.write(request.body)
        writer.bytes.append(UInt8(ascii: "\n"))
        session.console.output.write(bytes: writer.bytes)
        return .success
    }

    /// A client for the resolved endpoint, with secrets registered for scrubbing.
    mutating func client() throws(RunFailure) -> GraphQLClient {
        let console = session.console
        let (file, model) = (schemaFile, model)
        let client = try session.resolve { resolver throws(ContextError) in
            try resolver.client(file: file, model: model) { failure in console.error.write("gqlc: \(RunFailure(failure).message)\n") }
        }
        diagnostics.redactor = client.endpoint.redactor
        return client
    }

    /// Sends `request`, then prints the result at its decode path (or the envelope with `--raw-response`).
    /// `received` sees a result before it is printed; `nullIsNotFound` turns a null result into status 4.
    /// `expectsRecord`: the result is a model's record, so anything but an object (or null) is the server's fault.
    /// `explain` may say what a failure means (one more request is allowed, through the client it is given).
    mutating func send(
        _ request: GraphQLRequest, mayRetry: Bool, nullIsNotFound: Bool, expectsRecord: Bool = false,
        notFoundMessage: @autoclosure () -> String,
        explain: (RequestFailure, GraphQLClient) -> FailureExplanation? = { _, _ in nil },
        received: (JSONValue) -> Void = { _ in }
    ) -> ExitCode {
        var printer = ResultPrinter(console: session.console, globals: session.globals, columns: columns)
        if session.globals.decodeJSONFields && !session.globals.rawResponse { printer.decodingSchema = schemaFile?.schema }
        let client: GraphQLClient
        do {
            client = try self.client()
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        let response: GraphQLResponse
        do {
            response = try client.execute(request, mayRetry: mayRetry)
        } catch {
            diagnostics.error(error)
            if case .notes(let lines)? = explain(.execution(error), client) { lines.forEach(diagnostics.error) }
            return error.exitStatus
        }
        let outcome: RequestOutcome
        do {
            outcome = try response.outcome(
                decodePath: request.decodePath, nullIsNotFound: nullIsNotFound, pathIsGiven: request.decodePathIsGiven)
        } catch {
            if session.globals.rawResponse { printer.print(response.printableEnvelope) }
            diagnostics.error(error.description)
            return .httpError
        }
        if case .pathNotFound(let missing) = outcome {
            // The data is there but not at the path the user gave: the path's problem, not the server's.
            if session.globals.rawResponse { printer.print(response.printableEnvelope) }
            diagnostics.error(RawRunner.decodePathMessage(request.decodePath, missing))
            return outcome.exitStatus
        }
        if session.globals.rawResponse {
            printer.print(response.printableEnvelope)
            diagnostics.graphQLErrors(response.errors)
            return outcome.exitStatus
        }
        if expectsRecord, let problem = outcome.recordShapeProblem(at: request.decodePath) {
            if case .partial(_, let errors) = outcome { diagnostics.graphQLErrors(errors) }
            diagnostics.error(problem.description)
            return .httpError
        }
        switch outcome {
        case .success(let value):
            received(value)
            printer.print(value)
            return .success
        case .notFound:
            diagnostics.error(notFoundMessage())
            return .notFound
        case .partial(let value, let errors):
            printer.print(value)
            diagnostics.graphQLErrors(errors)
            return .partial
        case .pathNotFound:
            return outcome.exitStatus  // reported above
        case .failed(let errors):
            switch explain(.errors(errors, retried: response.attempts > 1), client) {
            case .applied(let record, let note)?:
                diagnostics.error(note)
                printer.print(record)
                return .success
            case .notFound?:
                diagnostics.error(notFoundMessage())
                return .notFound
            case .notes(let lines)?:
                diagnostics.graphQLErrors(errors)
                lines.forEach(diagnostics.error)
            case .instead(let line)?:
                diagnostics.error(line)
            case nil:
                diagnostics.graphQLErrors(errors)
            }
            return .graphQLErrors
        }
    }
}

/// A request that failed, as a command's `explain` sees it.
enum RequestFailure {
    /// The server answered with errors and no data; `retried`: after more than one attempt.
    case errors([GraphQLError], retried: Bool)
    /// No usable answer: network, timeout, HTTP status, not GraphQL.
    case execution(ExecutionError)
}

/// What a command makes of a failure, when it knows more than the errors say.
enum FailureExplanation {
    /// Lines printed after the errors (`hint: …`, what to check); the status stays.
    case notes([String])
    /// One line that says what the errors mean better than they do (a version conflict); the status stays.
    case instead(String)
    /// The record does not exist: the not-found message replaces the errors, with status 4.
    case notFound
    /// The write was applied after all (an earlier attempt's, whose answer was lost): `note` replaces the errors,
    /// the record is printed, status 0.
    case applied(JSONValue, note: String)
}
