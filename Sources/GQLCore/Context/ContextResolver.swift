#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves an ``APIContext`` from ``ContextSettings``: the schema file and its models, the endpoint with the auth
/// mode chosen for a model, and a client. AWS credentials are resolved once and shared by the resolver's copies,
/// however many clients sign (an orphan check, a cascade plan, bulk workers, reconnections).
///
/// Precedence is the settings (a front end's flags and variables), then the schema or config file (`data.url` and
/// `data.api_key`, or the legacy keys). IAM auth is chosen by the ``ContextSettings/iam`` setting, or by a file
/// whose default authorization type is `AWS_IAM` when no API key or token is given.
public struct ContextResolver: Sendable {
    /// What is resolved.
    public private(set) var settings: ContextSettings
    /// Answers only the person running can give (an MFA code, a secret to read).
    public let prompts: any ContextPrompts
    /// Sends requests (the API's, STS's, the SSO portal's).
    public let transport: any HTTPTransport
    /// The clock of the clients, the credential refresh and the token expiry checks; nil for real time.
    public let clock: RetryClock?
    /// Stops waits and requests.
    public let cancellation: CancellationFlag?
    /// Receives what was found and chosen (a verbose trace), or nil.
    public let notes: (@Sendable (ContextNote) -> Void)?
    /// Receives the clients' trace events, or nil.
    public let trace: TraceSink?
    /// The AWS credentials, resolved once and shared by this resolver's copies.
    let credentials = SharedCredentials()

    /// A resolver of `settings`.
    public init(
        settings: ContextSettings, prompts: any ContextPrompts, transport: any HTTPTransport = CurlTransport.shared,
        clock: RetryClock? = nil, cancellation: CancellationFlag? = nil, notes: (@Sendable (ContextNote) -> Void)? = nil,
        trace: TraceSink? = nil
    ) {
        self.settings = settings
        self.prompts = prompts
        self.transport = transport
        self.clock = clock
        self.cancellation = cancellation
        self.notes = notes
        self.trace = trace
    }

    /// This resolver for another endpoint of the same API (its Events endpoint), sharing the credentials.
    public func forEndpoint(_ url: EndpointURL) -> ContextResolver {
        var resolver = self
        resolver.settings.endpoint = Setting(value: url, origin: .commandLine)
        return resolver
    }

    /// The time now, by the injected clock.
    func now() -> Timestamp { clock?.now() ?? Timestamp.now() }

    func note(_ note: ContextNote) { notes?(note) }

    /// The context for requests on `model` (nil for requests on no model): the model schema of `file`, and a client
    /// for the endpoint with the auth mode chosen for the model.
    public func context(schema: ModelSchema, file: SchemaFile?, model: Model? = nil) throws(ContextError) -> APIContext {
        APIContext(schema: schema, client: try client(file: file, model: model))
    }

    /// A client for requests on `model`, with a user-pool token renewed after a 401; `renewalFailed` hears why a
    /// renewal could not be made (the 401 then stands).
    public func client(
        file: SchemaFile?, model: Model?, renewalFailed: (@Sendable (ContextError) -> Void)? = nil
    ) throws(ContextError) -> GraphQLClient {
        let (endpoint, renewToken) = try authorizedEndpoint(file: file, model: model)
        var client = client(endpoint: endpoint)
        if let renewToken {
            client.reauthorize = { @Sendable in
                let token = renewToken.renew(force: true)
                if token == nil, let failure = renewToken.failure { renewalFailed?(failure) }
                return token
            }
        }
        return client
    }

    /// The endpoint, with its auth headers, from the settings or the schema file.
    public func endpoint(file: SchemaFile?) throws(ContextError) -> Endpoint {
        try authorizedEndpoint(file: file, model: nil).endpoint
    }

    /// The endpoint for a request on `model` (nil for none), with the auth mode chosen for it, and for user-pool auth
    /// a way to renew the token (see ``userPoolAuthorization(file:)``).
    public func authorizedEndpoint(file: SchemaFile?, model: Model?) throws(ContextError)
        -> (endpoint: Endpoint, renewToken: TokenRenewal?)
    {
        let url: String
        if let setting = settings.endpoint {
            url = setting.value.absoluteString
        } else if let fromFile = file?.service.endpoint {
            url = fromFile
        } else if let file, file.format == .transformerSDL, file.path.contains("amplify/backend/api/") {
            // A Gen 1 schema's endpoint is in the project's aws-exports.js, which was not found.
            throw .noEndpoint(.gen1Schema(file.path))
        } else if let file {
            throw .noEndpoint(.schemaFile(file.path))
        } else {
            throw .noEndpoint(settings.schema.origin == .default
                ? .noSchemaFound(directory: Self.directoryNote) : .schemaNotFound(settings.schema.value))
        }
        var signs = false
        var apiKey: String?
        var authToken: String?
        var renewToken: TokenRenewal?
        switch try chosenAuthMode(file: file, model: model) {
        case nil:
            signs = try usesIAM(file: file)
            // A token given by a setting replaces the config file's API key; IAM auth sends neither.
            apiKey = settings.apiKey?.value.value ?? (settings.authToken == nil ? file?.service.apiKey : nil)
            authToken = settings.authToken?.value.value
            if signs { (apiKey, authToken) = (nil, nil) }
        case .apiKey:
            apiKey = settings.apiKey?.value.value ?? file?.service.apiKey
            guard apiKey != nil else { throw .apiKeyMissing }
        case .iam:
            signs = true
        case .userPool:
            (authToken, renewToken) = try userPoolAuthorization(file: file)
        case .oidc, .lambda:
            authToken = settings.authToken?.value.value
            guard authToken != nil else { throw .tokenMissing }
        }
        var endpoint: Endpoint
        do {
            endpoint = try Endpoint(
                url: url, apiKey: apiKey, authorization: authToken,
                headerLines: settings.headers.map { "\($0.name): \($0.value)" }, timeout: settings.timeout)
        } catch {
            throw .endpoint(error)
        }
        if signs { endpoint.signer = try signer(for: endpoint.url, file: file) }
        endpoint.sendsUserPoolToken = renewToken != nil
        endpoint.caFile = try caFile()
        endpoint.maxResponseBytes = settings.maxResponseMiB << 20
        return (endpoint, renewToken)
    }

    /// The CA file to verify HTTPS servers with, checked to be readable now so that its absence is an error naming
    /// where it came from, not a TLS failure later.
    public func caFile() throws(ContextError) -> String? {
        guard let setting = settings.caFile else { return nil }
        guard access(setting.value, R_OK) == 0 else {
            throw .unreadableCAFile(path: setting.value, origin: setting.origin, reason: String(cString: strerror(errno)))
        }
        return setting.value
    }

    /// A client for `endpoint`, tracing to ``trace``.
    public func client(endpoint: Endpoint) -> GraphQLClient {
        // Only a key or token: a custom header's short value (`X-Debug: 1`) is redacted too, as a whole word.
        if notes != nil, Redactor(secrets: endpoint.headers.filter { HeaderRedaction.isSensitive($0.name) }.map(\.value)).hasShortSecret {
            note(.shortSecret)
        }
        return GraphQLClient(
            endpoint: endpoint, transport: transport, retry: RetryPolicy(maxRetries: settings.retries),
            cancellation: cancellation, clock: clock, trace: trace)
    }

    /// "the working directory or its parents", with the directory when it can be read.
    public static var directoryNote: String {
        SchemaDiscovery.currentDirectory().map { "\($0) or its parents" } ?? "the working directory or its parents"
    }
}
