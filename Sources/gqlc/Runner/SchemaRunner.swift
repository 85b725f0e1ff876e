import GQLCore

/// `gqlc schema pull|print`: the core's ``SchemaPullOperation`` over the usual transport and auth; this prints.
struct SchemaRunner {
    let session: Session
    let diagnostics: Diagnostics

    func run(_ invocation: SchemaInvocation) -> ExitCode {
        var execution: RequestExecution
        let client: GraphQLClient
        do throws(RunFailure) {
            if invocation.action == .print, invocation.format == .introspection {
                // The model introspection of the schema gqlc was given; nothing is sent.
                session.console.output.write(ModelIntrospectionWriter.json(try session.models().schema).serialized(.pretty) + "\n")
                return .success
            }
            execution = RequestExecution(session: session, diagnostics: diagnostics, schemaFile: try session.resolve {
                resolver throws(ContextError) in try resolver.schemaFile(required: false)
            })
            if session.globals.dryRun { return execution.printDryRun(SchemaPullOperation.request) }
            client = try execution.client()
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        let operation = SchemaPullOperation()
        do throws(SchemaPullError) {
            let api = try operation.fetch(client)
            let endpoint = client.endpoint.url.absoluteString
            guard invocation.action == .pull else {
                session.console.output.write(SDLPrinter.print(api))
                return .success
            }
            let pulled = try operation.save(
                api, endpoint: endpoint, out: invocation.out, cacheDirectory: session.globals.context.cacheDirectory, phrase: \.commandLineMessage)
            if invocation.out == "-" { session.console.output.write(bytes: pulled.json) }
            let lines = pulled.summary(endpoint: endpoint, phrase: \.commandLineMessage)
            session.console.error.write(lines.map { "gqlc: " + $0 }.joined(separator: "\n") + "\n")
            return .success
        } catch {
            let diagnostics = execution.diagnostics
            switch error {
            case .request(let error): diagnostics.error(error)
            case .noData(let errors) where !errors.isEmpty: diagnostics.graphQLErrors(errors)
            case .noCacheDirectory: diagnostics.error("\(error); pass \(SchemaCommand.out.usageForm)")
            case .noData, .notASchema, .writeFailed: diagnostics.error(error.description)
            }
            return ExitCode(error.kind)
        }
    }
}
