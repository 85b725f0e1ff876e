import GQLCore

/// One run's options, console and cancellation, and the core's ``ContextResolver`` made from them, which resolves the
/// schema, the endpoint, the auth and the clients (AWS credentials once for the run, shared by the session's copies).
struct Session: Sendable {
    let globals: GlobalOptions
    let console: Console
    let cancellation: CancellationFlag
    /// Resolves the schema, endpoint, auth and clients from ``globals``; its notes are the `--verbose` lines.
    let resolver: ContextResolver

    init(globals: GlobalOptions, console: Console, cancellation: CancellationFlag) {
        self.globals = globals
        self.console = console
        self.cancellation = cancellation
        let errorSink = console.error
        let trace: TraceSink
        if globals.verbose {
            trace = { @Sendable (event: TraceEvent) in errorSink.write(event.lines(naming: \.flagName).joined(separator: "\n") + "\n") }
        } else {
            // Long waits are said even off a terminal, so a run never sits silent for a minute.
            trace = { @Sendable (event: TraceEvent) in
                if let notice = event.retryNotice { errorSink.write("gqlc: \(notice)\n") }
            }
        }
        resolver = ContextResolver(
            settings: globals.context, prompts: TerminalPrompts(console: console, cancellation: cancellation),
            cancellation: cancellation,
            notes: globals.verbose ? { @Sendable note in errorSink.write(note.commandLineText + "\n") } : nil,
            trace: trace)
    }

    /// What `body` resolves, its failure phrased for the command line.
    func resolve<T>(_ body: (ContextResolver) throws(ContextError) -> T) throws(RunFailure) -> T {
        do throws(ContextError) {
            return try body(resolver)
        } catch {
            throw RunFailure(error)
        }
    }

    /// The run's schema file and models, loaded once by the resolver.
    func models() throws(RunFailure) -> (file: SchemaFile?, schema: ModelSchema) {
        try resolve { resolver throws(ContextError) in try resolver.models() }
    }
}

/// The MFA code asked on the terminal; a client secret given as `@FILE` or `-` read as `--client-secret` is.
struct TerminalPrompts: ContextPrompts {
    let console: Console
    let cancellation: CancellationFlag

    func mfaCode(serial: String) -> String? {
        // On the terminal only (standard input may be a document); nil without one.
        try? Prompter(fromStandardInput: false, cancellation: cancellation).line("MFA code for \(serial)", secret: false)
            .trimmingWhitespace
    }

    func clientSecret(_ value: String) throws(ContextError) -> String {
        do throws(RunFailure) {
            return try SecretArguments.read(value, option: UserPoolOptions.clientSecret, console: console)
        } catch {
            throw .prompt(error.message)
        }
    }
}
