import GQLCore

/// `gqlc raw`: any GraphQL document, parsed and checked locally before anything is sent.
struct RawRunner {
    let session: Session
    let diagnostics: Diagnostics

    func run(_ invocation: RawInvocation) -> ExitCode {
        let request: GraphQLRequest
        let schemaFile: SchemaFile?
        do {
            // The schema file is optional here: it only supplies the endpoint and credentials.
            schemaFile = try session.schemaFile(required: false)
            request = try makeRequest(invocation)
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        var execution = RequestExecution(
            session: session, diagnostics: diagnostics, schemaFile: schemaFile, decodePathIsUsers: true)
        if session.globals.dryRun { return execution.printDryRun(request) }
        if request.operationType == .subscription { return subscribe(request, schemaFile: schemaFile) }
        let mayRetry = RetryPolicy.mayRetry(
            request.operationType, retryMutations: session.globals.retryMutations, mutationIsIdempotent: false)
        return execution.send(request, mayRetry: mayRetry, nullIsNotFound: false, notFoundMessage: "")
    }

    /// Streams a subscription's events over the real-time WebSocket, reported under its first root field.
    private func subscribe(_ request: GraphQLRequest, schemaFile: SchemaFile?) -> ExitCode {
        let rootField = (try? ParsedDocument(parsing: request.query, fileName: ""))
            .flatMap { try? $0.document.operation(named: request.operationName) }
            .flatMap { operation in
                operation.selectionSet.lazy.compactMap { selection -> String? in
                    if case .field(let field) = selection { return field.alias ?? field.name }
                    return nil
                }.first
            }
        var stream = SubscriptionStream(
            session: session, diagnostics: diagnostics, schemaFile: schemaFile, decodePath: { $0.request.decodePath })
        return stream.run([RealtimeSubscription(name: rootField ?? "subscription", request: request)])
    }

    /// Reads, parses and checks the document and its variables.
    func makeRequest(_ invocation: RawInvocation) throws(RunFailure) -> GraphQLRequest {
        let (text, name) = try documentText(invocation.document)
        let parsed: ParsedDocument
        do {
            parsed = try ParsedDocument(parsing: text, fileName: name)
        } catch {
            throw RunFailure(report: error.report)
        }
        if let problem = parsed.validate().first {
            throw RunFailure(report: problem.report)
        }
        let operation: OperationDefinition
        do {
            operation = try parsed.document.operation(named: invocation.operationName)
        } catch {
            throw RunFailure("\(name): \(error.description)")
        }
        let variables = try self.variables(invocation)
        if let problem = operation.variableProblems(in: variables).first {
            throw RunFailure(problem.description + Self.fix(for: problem))
        }
        do {
            try parsed.document.checkDecodePath(invocation.decodePath, for: operation)
        } catch {
            throw RunFailure("--decode-path '\(invocation.decodePath.joined(separator: "."))': \(error.description)")
        }
        // Several operations: send the whole document and name the one to run, as GraphQL servers expect.
        let operationName = parsed.document.operations.count > 1 ? operation.name : invocation.operationName
        return GraphQLRequest(
            query: text, variables: variables, operationName: operationName, operationType: operation.operationType,
            decodePath: invocation.decodePath)
    }

    /// How to fix a variable problem with raw's options (a suggested name says enough on its own).
    private static func fix(for problem: VariableProblem) -> String {
        switch problem {
        case .missing(let name, _, _): return "; give it with --var \(name)=VALUE or in --vars"
        case .undeclared(_, nil, _): return "; leave it out, or declare it in the operation"
        case .undeclared: return ""
        }
    }

    /// The document's text and the name to show in errors.
    private func documentText(_ source: DocumentSource) throws(RunFailure) -> (String, String) {
        switch source {
        case .text(let text):
            return (text, "--query")
        case .file(let file):
            do {
                return (try file.text(session.console), file.name)
            } catch {
                throw RunFailure(error.description)
            }
        }
    }

    /// `--vars` first, then each `--var` in order; later values replace earlier ones.
    private func variables(_ invocation: RawInvocation) throws(RunFailure) -> JSONObject {
        var variables = JSONObject()
        if let source = invocation.variablesFile {
            let json = try JSONArgument.read(source, option: "--vars", console: session.console)
            guard case .object(let object) = json else {
                throw RunFailure("--vars: expected a JSON object of variables, found \(json.kindDescription)")
            }
            variables = object
        }
        for text in invocation.variables {
            do {
                let assignment = try FieldAssignment.parse(text)
                switch assignment.value {
                case .text(let string): variables[assignment.field] = .string(string)
                case .json(let value): variables[assignment.field] = value
                }
            } catch {
                // The parser is shared with the model commands, whose syntax errors speak of FIELDs.
                guard case .syntax = error else { throw RunFailure("--var '\(text)': \(error.description)") }
                throw RunFailure(
                    "--var '\(text)': expected NAME=VALUE (a string) or NAME:=JSON, e.g. --var id=1000 or --var first:=5")
            }
        }
        return variables
    }
}
