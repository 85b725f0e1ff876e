import GQLCore

/// `gqlc raw`: any GraphQL document, parsed and checked locally before anything is sent.
struct RawRunner {
    let session: Session
    let diagnostics: Diagnostics

    func run(_ invocation: RawInvocation) -> ExitCode {
        var operation: RawOperation
        let schemaFile: SchemaFile?
        do {
            // The schema file is optional here: it only supplies the endpoint and credentials.
            schemaFile = try session.resolve { resolver throws(ContextError) in
                try resolver.schemaFile(required: false)
            }
            operation = try makeOperation(invocation)
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        let request = operation.request
        let execution = RequestExecution(session: session, diagnostics: diagnostics, schemaFile: schemaFile)
        if session.globals.dryRun { return execution.printDryRun(request) }
        if request.operationType == .mutation,
            let status = WriteGuard.check("send a mutation", session: session, diagnostics: diagnostics)
        {
            return status
        }
        if request.operationType == .subscription {
            var stream = SubscriptionStream(
                session: session, diagnostics: diagnostics, schemaFile: schemaFile, decodePath: { $0.request.decodePath })
            return stream.run([RealtimeSubscription(request: request)], shape: session.globals.rawResponse ? .response : .result)
        }
        operation.retriesMutations = session.globals.retryMutations
        operation.reportsEnvelope = session.globals.rawResponse
        let schema = schemaFile?.schema ?? ModelSchema()
        var runner = ModelCommandRunner(session: session, schema: schema, builder: RequestBuilder(schema: schema), execution: execution)
        return runner.perform(printer: runner.recordPrinter(), progress: false) { context, events in operation.run(in: context, events: events) }
    }

    /// Reads the document and its variables; the core parses and checks them.
    func makeOperation(_ invocation: RawInvocation) throws(RunFailure) -> RawOperation {
        let (text, name) = try documentText(invocation.document)
        let variables = try self.variables(invocation)
        let operation: RawOperation
        do {
            operation = try RawOperation(
                document: text, fileName: name, variables: variables, operationName: invocation.operationName,
                decodePath: invocation.decodePath)
        } catch {
            throw Self.failure(error, documentName: name)
        }
        for problem in operation.undeclaredVariables {
            diagnostics.error("warning: \(problem); it is sent, and the server ignores it")
        }
        return operation
    }

    /// The document's problem, phrased with raw's options.
    private static func failure(_ error: RawRequestError, documentName name: String) -> RunFailure {
        switch error {
        case .syntax(let error): .report(error.report)
        case .invalid(let problem): .report(problem.report)
        case .operation: .usage("\(name): \(error.commandLineMessage)")
        case .variable, .decodePath: .usage(error.commandLineMessage)
        }
    }

    /// The document's text and the name to show in errors: `--query`, piped standard input (``InputSource/pipedText(from:)``)
    /// or a file.
    private func documentText(_ source: DocumentSource) throws(RunFailure) -> (String, String) {
        let document: (String, String)?
        do throws(FileReadError) {
            switch source {
            case .text(let text): document = (text, RawCommand.query.flagName)
            case .pipedStandardInput:
                document = try InputSource.pipedText(from: session.console.input).map { ($0, InputSource.standardInput.name) }
            case .file(let file): document = (try file.text(from: session.console.input), file.name)
            }
        } catch {
            throw .usage(error.description)
        }
        guard let document else { throw .usage(RawCommand.missingDocument) }
        return document
    }

    /// `--vars` first, then each `--var` in order (``RawOperation/variables(file:assignments:)``).
    private func variables(_ invocation: RawInvocation) throws(RunFailure) -> JSONObject {
        let file = try invocation.variablesFile.map { source throws(RunFailure) in
            try JSONArgument.read(source, option: RawCommand.vars.flagName, console: session.console)
        }
        do throws(RawVariablesError) {
            return try RawOperation.variables(file: file, assignments: invocation.variables)
        } catch {
            throw .usage(error.commandLineMessage)
        }
    }
}

extension RawCommand {
    static func run(_ invocation: RawInvocation, in context: RunContext) -> ExitCode {
        RawRunner(session: context.session, diagnostics: context.diagnostics).run(invocation)
    }
}
