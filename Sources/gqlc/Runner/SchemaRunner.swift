import GQLCore

/// `gqlc schema pull|print`: the introspection query over the usual transport and auth, then models or SDL.
struct SchemaRunner {
    let session: Session
    let diagnostics: Diagnostics

    func run(_ invocation: SchemaInvocation) -> ExitCode {
        if invocation.action == .print, invocation.format == .introspection { return printIntrospection() }
        let request = GraphQLRequest(query: APISchema.query, operationName: "IntrospectionQuery", decodePath: ["__schema"])
        var execution: RequestExecution
        do {
            execution = RequestExecution(session: session, diagnostics: diagnostics, schemaFile: try session.resolve { resolver throws(ContextError) in
                try resolver.schemaFile(required: false)
            })
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        if session.globals.dryRun { return execution.printDryRun(request) }
        let client: GraphQLClient
        let response: GraphQLResponse
        do {
            client = try execution.client()
        } catch {
            execution.diagnostics.failure(error)
            return error.status
        }
        do {
            response = try client.execute(request, mayRetry: true)
        } catch {
            execution.diagnostics.error(error)
            return error.exitStatus
        }
        guard let data = response.data, !data.isNull else {
            execution.diagnostics.graphQLErrors(response.errors)
            if response.errors.isEmpty { execution.diagnostics.error("the server answered the introspection query without data") }
            return .graphQLErrors
        }
        let api: APISchema
        do {
            api = try APISchema(json: data, source: client.endpoint.url.absoluteString)
        } catch {
            execution.diagnostics.error("the introspection result is not a schema: \(error)")
            return .httpError
        }
        switch invocation.action {
        case .print:
            session.console.output.write(SDLPrinter.print(api))
            return .success
        case .pull:
            return pull(api, endpoint: client.endpoint.url.absoluteString, out: invocation.out, diagnostics: execution.diagnostics)
        }
    }

    /// The model introspection of the schema gqlc was given, pretty-printed; nothing is sent.
    private func printIntrospection() -> ExitCode {
        let schema: ModelSchema
        do {
            schema = try session.models().schema
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        var writer = JSONWriter(style: .pretty)
        writer.write(ModelIntrospectionWriter.json(schema))
        writer.bytes.append(UInt8(ascii: "\n"))
        session.console.output.write(bytes: writer.bytes)
        return .success
    }

    private func pull(_ api: APISchema, endpoint: String, out: String?, diagnostics: Diagnostics) -> ExitCode {
        let derived = IntrospectedModels(api)
        guard let path = out ?? session.globals.cacheDirectory.map({ SchemaDiscovery.cachePath(endpoint: endpoint, cacheDirectory: $0) }) else {
            diagnostics.error("no cache directory: neither XDG_CACHE_HOME nor HOME is set; pass \(SchemaCommand.out.usageForm)")
            return .usage
        }
        var writer = JSONWriter(style: .pretty)
        writer.write(ModelIntrospectionWriter.json(derived.schema))
        writer.bytes.append(UInt8(ascii: "\n"))
        do {
            if out == "-" {
                session.console.output.write(String(decoding: writer.bytes, as: UTF8.self))
            } else {
                try FileWriter.write(writer.bytes, to: path, createDirectories: out == nil)
            }
            if out == nil {
                // Beside the cache (the MIS format allows no extra keys), for --verbose when it is used.
                let notes = derived.assumptions.map { $0.commandLineMessage + "\n" }.joined()
                try FileWriter.write(Array(notes.utf8), to: SchemaDiscovery.assumptionsPath(cachePath: path))
            }
        } catch {
            diagnostics.error("cannot write the schema: \(error)")
            return .usage
        }
        let models = derived.schema.modelNames
        var lines = ["pulled \(models.count) model\(models.count == 1 ? "" : "s") from \(endpoint) to \(path == "-" ? "standard output" : path)"
                     + (models.isEmpty ? "" : ": " + models.joined(separator: ", "))]
        if models.isEmpty { lines.append("no Model…Connection types: this API does not follow the Amplify transformer's conventions") }
        lines += derived.assumptions.map { "assumed: \($0.commandLineMessage)" }  // what introspection could not tell
        session.console.error.write(lines.map { "gqlc: " + $0 }.joined(separator: "\n") + "\n")
        return .success
    }
}
