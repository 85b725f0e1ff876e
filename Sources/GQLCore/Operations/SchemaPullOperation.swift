/// Why a schema could not be pulled.
public enum SchemaPullError: Error, Sendable {
    /// The introspection query had no usable answer.
    case request(ExecutionError)
    /// The server answered without data (with these errors, perhaps none).
    case noData([GraphQLError])
    /// The answer is not a schema (why).
    case notASchema(String)
    /// No cache directory to write to (neither XDG_CACHE_HOME nor HOME is set), and no file was given.
    case noCacheDirectory
    /// The file could not be written.
    case writeFailed(FileWriter.WriteError)
}

/// A schema pulled by introspection: where it went, its models and what introspection could not tell.
public struct PulledSchema: Sendable {
    /// The file written, or `-` when the caller prints ``json``.
    public var path: String
    /// The model introspection schema, pretty-printed, with a final newline.
    public var json: [UInt8]
    /// The models pulled, by name.
    public var models: [String]
    /// What introspection could not tell, and what was assumed instead.
    public var assumptions: [IntrospectedModels.Assumption]

    /// What a pull reports: where the models went, and what introspection could not tell (worded by `phrase`).
    public func summary(endpoint: String, phrase: (IntrospectedModels.Assumption) -> String) -> [String] {
        let count = "\(models.count) model\(models.count == 1 ? "" : "s")"
        var lines = ["pulled \(count) from \(endpoint) to \(path == "-" ? "standard output" : path)" + (models.isEmpty ? "" : ": " + models.joined(separator: ", "))]
        if models.isEmpty { lines.append("no Model…Connection types: this API does not follow the Amplify transformer's conventions") }
        return lines + assumptions.map { "assumed: " + phrase($0) }
    }
}

/// `schema pull` and `schema print`: the API's schema by the introspection query over the run's client, then its
/// models (written to a file or the cache beside the endpoint's other schemas) or its SDL.
public struct SchemaPullOperation: Sendable {
    /// The introspection query.
    public static let request = GraphQLRequest(query: APISchema.query, operationName: "IntrospectionQuery", decodePath: ["__schema"])

    /// A pull; the request and the client come with the run.
    public init() {}

    /// Sends the introspection query through `client` and reads the API's schema from the answer.
    public func fetch(_ client: GraphQLClient) throws(SchemaPullError) -> APISchema {
        let response: GraphQLResponse
        do {
            response = try client.execute(Self.request, mayRetry: true)
        } catch {
            throw .request(error)
        }
        guard let data = response.data, !data.isNull else { throw .noData(response.errors) }
        do {
            return try APISchema(json: data, source: client.endpoint.url.absoluteString)
        } catch {
            throw .notASchema("\(error)")
        }
    }

    /// Writes `api`'s models to `out` (nil: the cache file for `endpoint` in `cacheDirectory`, with the assumptions
    /// beside it, worded by `phrase`; `-`: nothing is written, the caller prints ``PulledSchema/json``).
    public func save(
        _ api: APISchema, endpoint: String, out: String?, cacheDirectory: String?,
        phrase: (IntrospectedModels.Assumption) -> String
    ) throws(SchemaPullError) -> PulledSchema {
        let derived = IntrospectedModels(api)
        guard let path = out ?? cacheDirectory.map({ SchemaDiscovery.cachePath(endpoint: endpoint, cacheDirectory: $0) }) else {
            throw .noCacheDirectory
        }
        var writer = JSONWriter(style: .pretty)
        writer.write(ModelIntrospectionWriter.json(derived.schema))
        writer.bytes.append(UInt8(ascii: "\n"))
        do {
            if out != "-" { try FileWriter.write(writer.bytes, to: path, createDirectories: out == nil) }
            if out == nil {
                // Beside the cache (the MIS format allows no extra keys), for the verbose notes when it is used.
                let notes = derived.assumptions.map { phrase($0) + "\n" }.joined()
                try FileWriter.write(Array(notes.utf8), to: SchemaDiscovery.assumptionsPath(cachePath: path))
            }
        } catch {
            throw .writeFailed(error)
        }
        return PulledSchema(path: path, json: writer.bytes, models: derived.schema.modelNames, assumptions: derived.assumptions)
    }
}

extension SchemaPullError: CustomStringConvertible {
    /// One line: `the introspection result is not a schema: …`; a failed request says its own failure, and an answer
    /// without data is best told by its errors when it has some.
    public var description: String {
        switch self {
        case .request(let error): error.description
        case .noData(let errors): errors.first?.description ?? "the server answered the introspection query without data"
        case .notASchema(let reason): "the introspection result is not a schema: \(reason)"
        case .noCacheDirectory: "no cache directory: neither XDG_CACHE_HOME nor HOME is set"
        case .writeFailed(let error): "cannot write the schema: \(error)"
        }
    }

    /// How the pull ended: the request's failure, GraphQL errors, an answer that is not a schema (as a response that
    /// is not GraphQL), or a file that cannot be written (invalid input: nothing was pulled).
    public var kind: ResultKind {
        switch self {
        case .request(let error): error.kind
        case .noData: .graphQLErrors
        case .notASchema: .httpError
        case .noCacheDirectory, .writeFailed: .invalidInput
        }
    }
}
