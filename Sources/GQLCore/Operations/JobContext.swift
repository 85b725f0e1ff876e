/// What a whole-app job (snapshot, restore, copy, diff) runs over, resolved once before its first request: the model
/// schema, its request builder, and a client for each model (the model's auth rules choose its auth mode; the
/// endpoint, AWS credentials and tokens are resolved once for them all, however many clients sign).
public struct JobContext: Sendable {
    /// The models the requests are built from.
    public let schema: ModelSchema
    /// Builds every request of the job.
    public let builder: RequestBuilder
    /// The schema file the models were read from, when there is one (a snapshot records its SHA-256).
    public let schemaFile: SchemaFile?
    /// The API's URL, as given (a snapshot records it with user info masked).
    public let endpoint: String?
    private let makeClient: @Sendable (Model?) throws(ContextError) -> GraphQLClient

    /// A context whose clients `client(model)` makes (nil: a request on no model).
    public init(
        schema: ModelSchema, schemaFile: SchemaFile? = nil, endpoint: String? = nil,
        client: @escaping @Sendable (Model?) throws(ContextError) -> GraphQLClient
    ) {
        self.schema = schema
        builder = RequestBuilder(schema: schema)
        self.schemaFile = schemaFile
        self.endpoint = endpoint
        makeClient = client
    }

    /// The context `resolver` resolves for the models of `file`; `renewalFailed` hears why a token could not be renewed.
    public init(
        resolver: ContextResolver, schema: ModelSchema, file: SchemaFile?, renewalFailed: (@Sendable (ContextError) -> Void)? = nil
    ) {
        self.init(schema: schema, schemaFile: file, endpoint: resolver.settings.endpoint?.value.absoluteString ?? file?.service.endpoint) {
            model throws(ContextError) in try resolver.client(file: file, model: model, renewalFailed: renewalFailed)
        }
    }

    /// The client for requests on `model` (its auth mode), or why there is none; its secrets (an API key, a token) are
    /// registered with ``ProcessSecrets``, so that no error or trace of the job prints them.
    public func client(for model: Model?) throws(ContextError) -> GraphQLClient {
        let client = try makeClient(model)
        ProcessSecrets.register(client.endpoint.redactor.secrets)
        return client
    }

    /// Resolves the API itself (its endpoint and the auth of a request on no model) before a job's first step, so that
    /// a job that cannot reach it fails before anything is listed or written.
    func resolveAPI() throws(ContextError) { _ = try client(for: nil) }

    /// The clients of `models`, resolved now (before anything is sent), by name.
    func clients(of models: [String]) throws(ContextError) -> [String: GraphQLClient] {
        var clients: [String: GraphQLClient] = [:]
        for name in models { clients[name] = try client(for: schema.models[name]) }
        return clients
    }

    /// The SHA-256 (hex) of the schema file, when there is one and it can be read.
    public var schemaSHA256: String? {
        guard let path = schemaFile?.path, let bytes = try? FileReader.bytes(atPath: path) else { return nil }
        return SHA256.hash(bytes).hexString
    }

    /// A model's listing (of every record, or of `fields`), page by page, through `client`.
    func listing(_ model: String, client: GraphQLClient, fields: FieldSelection = .all) throws(RequestBuildError) -> ListPager {
        let requests = try builder.listPages(model, fields: fields)
        return ListPager(
            client: client, connectionPath: [requests.rootField],
            makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
    }
}
