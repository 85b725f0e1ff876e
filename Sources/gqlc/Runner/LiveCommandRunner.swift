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

/// The client of a run's requests (its secrets registered for scrubbing) and the `--dry-run` print of a request.
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
        session.console.output.write(request.body.serialized(session.globals.layout == .pretty ? .pretty : .compact) + "\n")
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
}
