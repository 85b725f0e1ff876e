import GQLCore

/// Carries out parsed commands against the core: schema, request, transport, output, exit status.
struct LiveCommandRunner: CommandRunner {
    /// Cancelled by SIGINT/SIGTERM (see ``SignalTrap``).
    let cancellation: CancellationFlag

    func run(_ invocation: Invocation, console: Console) -> ExitCode {
        let session = Session(globals: invocation.globals, console: console, cancellation: cancellation)
        let diagnostics = Diagnostics(sink: console.error)
        switch invocation.command {
        case .models(let models):
            return ModelsRunner.run(models, session: session, diagnostics: diagnostics)
        case .raw(let raw):
            return RawRunner(session: session, diagnostics: diagnostics).run(raw)
        case .subscribe(let subscribe):
            return SubscribeRunner(session: session, diagnostics: diagnostics).run(subscribe)
        case .list(let list):
            return ModelCommandRunner.prepare(session: session, diagnostics: diagnostics) { runner in runner.list(list) }
        case .get(let get):
            return ModelCommandRunner.prepare(session: session, diagnostics: diagnostics) { runner in runner.get(get) }
        case .create(let create):
            return ModelCommandRunner.prepare(session: session, diagnostics: diagnostics) { runner in runner.create(create) }
        case .update(let update):
            return ModelCommandRunner.prepare(session: session, diagnostics: diagnostics) { runner in runner.update(update) }
        case .delete(let delete):
            return ModelCommandRunner.prepare(session: session, diagnostics: diagnostics) { runner in runner.delete(delete) }
        }
    }
}

/// Sends one request and prints its result; shared by the model commands and `raw`.
struct RequestExecution {
    let session: Session
    var diagnostics: Diagnostics
    let schemaFile: SchemaFile?
    /// Set by `raw`, whose decode path is the user's `--decode-path`: a response with data but without
    /// the path is then the path's problem, reported against the option with status 1, not as an
    /// unexpected response from the server (status 5).
    var decodePathIsUsers = false

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
        let endpoint = try session.endpoint(file: schemaFile)
        diagnostics.redactor = endpoint.redactor
        return session.client(endpoint: endpoint)
    }

    /// Sends `request`, then prints the result at its decode path (or the envelope with `--raw-response`).
    /// `complete` may fetch more (child pages) before printing; `nullIsNotFound` turns a null result into status 4.
    /// `explain` may say what a failure means (one more request is allowed, through the client it is given).
    mutating func send(
        _ request: GraphQLRequest, mayRetry: Bool, nullIsNotFound: Bool, notFoundMessage: @autoclosure () -> String,
        explain: (RequestFailure, GraphQLClient) -> FailureExplanation? = { _, _ in nil },
        complete: (JSONValue, GraphQLClient) throws(RunFailure) -> JSONValue = { value, _ in value }
    ) -> ExitCode {
        let printer = ResultPrinter(console: session.console, globals: session.globals)
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
            outcome = try response.outcome(decodePath: request.decodePath, nullIsNotFound: nullIsNotFound)
        } catch {
            if session.globals.rawResponse { printer.print(response.printableEnvelope) }
            if decodePathIsUsers, case .missingResult(let missing) = error, let data = response.data, !data.isNull {
                diagnostics.error("--decode-path '\(request.decodePath.joined(separator: "."))': \(missing.description)")
                return .graphQLErrors
            }
            diagnostics.error(error.description)
            return .httpError
        }
        if session.globals.rawResponse {
            printer.print(response.printableEnvelope)
            diagnostics.graphQLErrors(response.errors)
            return outcome.exitStatus
        }
        switch outcome {
        case .success(let value):
            do {
                printer.print(try complete(value, client))
                return .success
            } catch {
                // The first page is still worth having: print it, then say what is missing.
                printer.print(value)
                diagnostics.failure(error)
                return error.status
            }
        case .notFound:
            diagnostics.error(notFoundMessage())
            return .notFound
        case .partial(let value, let errors):
            printer.print(value)
            diagnostics.graphQLErrors(errors)
            return .partial
        case .failed(let errors):
            switch explain(.errors(errors), client) {
            case .notFound?:
                diagnostics.error(notFoundMessage())
                return .notFound
            case .notes(let lines)?:
                diagnostics.graphQLErrors(errors)
                lines.forEach(diagnostics.error)
            case nil:
                diagnostics.graphQLErrors(errors)
            }
            return .graphQLErrors
        }
    }
}

/// A request that failed, as a command's `explain` sees it.
enum RequestFailure {
    /// The server answered with errors and no data.
    case errors([GraphQLError])
    /// No usable answer: network, timeout, HTTP status, not GraphQL.
    case execution(ExecutionError)
}

/// What a command makes of a failure, when it knows more than the errors say.
enum FailureExplanation {
    /// Lines printed after the errors (`hint: …`, what to check); the status stays.
    case notes([String])
    /// The record does not exist: the not-found message replaces the errors, with status 4.
    case notFound
}

extension GraphQLResponse {
    /// The response as received, for `--raw-response`.
    var printableEnvelope: JSONValue {
        envelope ?? .object(["data": data ?? .null])
    }
}
