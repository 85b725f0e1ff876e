import GQLCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The resolved setting-up of one run: the schema file, the endpoint and the client, built on demand.
///
/// Precedence is flags, then `GQLC_*` environment variables (both already in ``GlobalOptions``),
/// then the schema or config file (`data.url` and `data.api_key`, or the legacy keys). IAM auth is chosen
/// by `--iam` / `GQLC_IAM`, or by a file whose default authorization type is `AWS_IAM` when no API key or
/// token is given by flag or environment (see ``signer(for:file:)``).
struct Session: Sendable {
    let globals: GlobalOptions
    let console: Console
    let cancellation: CancellationFlag
    /// The AWS credentials, resolved once for the run and shared by the session's copies.
    let credentials = RunCredentials()

    /// The endpoint, with its auth headers, from flags, environment or the schema file.
    func endpoint(file: SchemaFile?) throws(RunFailure) -> Endpoint {
        try authorizedEndpoint(file: file, model: nil).endpoint
    }

    /// The endpoint for a request on `model` (nil for `raw`), with the auth mode chosen for it, and for user-pool auth
    /// a way to renew the token (see ``userPoolAuthorization(file:)``).
    func authorizedEndpoint(file: SchemaFile?, model: Model?) throws(RunFailure)
        -> (endpoint: Endpoint, renewToken: TokenRenewal?)
    {
        let url: String
        if let setting = globals.endpoint {
            url = setting.value.absoluteString
        } else if let fromFile = file?.service.endpoint {
            url = fromFile
        } else {
            let fileNote: String
            if let file, file.format == .transformerSDL, file.path.contains("amplify/backend/api/") {
                // A Gen 1 schema's endpoint is in the project's aws-exports.js, which was not found.
                fileNote = "\(file.path) (it has no endpoint, and no src/aws-exports.js was found beside its project)"
            } else if let file {
                fileNote = "\(file.path) (it has no endpoint)"
            } else {
                fileNote = globals.schema.origin == .default
                    ? "\(SchemaDiscovery.defaultFileName) (none in \(directoryNote))" : "\(globals.schema.value) (not found)"
            }
            throw RunFailure.usage(
                "no endpoint: looked in --endpoint, $GQLC_ENDPOINT and \(fileNote); pass --endpoint URL or set GQLC_ENDPOINT")
        }
        var signs = false
        var apiKey: String?
        var authToken: String?
        var renewToken: TokenRenewal?
        switch try chosenAuthMode(file: file, model: model) {
        case nil:
            signs = try usesIAM(file: file)
            // A token given by flag or environment replaces the config file's API key; IAM auth sends neither.
            apiKey = globals.apiKey?.value.value ?? (globals.authToken == nil ? file?.service.apiKey : nil)
            authToken = globals.authToken?.value.value
            if signs { (apiKey, authToken) = (nil, nil) }
        case .apiKey:
            apiKey = globals.apiKey?.value.value ?? file?.service.apiKey
            guard apiKey != nil else {
                throw .usage("auth mode apiKey needs an API key: pass --api-key KEY or set GQLC_API_KEY")
            }
        case .iam:
            signs = true
        case .userPool:
            (authToken, renewToken) = try userPoolAuthorization(file: file)
        case .oidc, .lambda:
            authToken = globals.authToken?.value.value
            guard authToken != nil else {
                throw .usage("this auth mode sends a token you supply: pass --auth-token TOKEN or set GQLC_AUTH_TOKEN")
            }
        }
        var endpoint: Endpoint
        do {
            endpoint = try Endpoint(
                url: url, apiKey: apiKey, authorization: authToken,
                headerLines: globals.headers.map { "\($0.name): \($0.value)" }, timeout: globals.timeout)
        } catch {
            throw .endpoint(error)
        }
        if signs { endpoint.signer = try signer(for: endpoint.url, file: file) }
        endpoint.sendsUserPoolToken = renewToken != nil
        endpoint.caFile = try caFile()
        endpoint.maxResponseBytes = globals.maxResponseMiB << 20
        return (endpoint, renewToken)
    }

    /// The CA file to verify HTTPS servers with, checked to be readable now so that its absence is a usage error
    /// naming where it came from, not a TLS failure later.
    func caFile() throws(RunFailure) -> String? {
        guard let setting = globals.caFile else { return nil }
        guard access(setting.value, R_OK) == 0 else {
            let reason = String(cString: strerror(errno))
            throw RunFailure.usage(
                "cannot read the CA certificates file '\(setting.value)' from \(setting.origin.describe(GlobalOptions.caCertOption)): \(reason)")
        }
        return setting.value
    }

    /// A client for the endpoint; `--verbose` traces go to stderr.
    func client(endpoint: Endpoint) -> GraphQLClient {
        let errorSink = console.error
        var trace: TraceSink?
        if globals.verbose {
            // Only a key or token: a custom header's short value (`X-Debug: 1`) is redacted too, as a whole word.
            if Redactor(secrets: endpoint.headers.filter { HeaderRedaction.isSensitive($0.name) }.map(\.value)).hasShortSecret {
                console.error.write("* warning: a key or token is shorter than \(Redactor.shortSecretLength) characters, "
                    + "which is unusual; it is redacted only where it stands as a whole word\n")
            }
            trace = { @Sendable (event: TraceEvent) in errorSink.write(event.lines(naming: \.flagName).joined(separator: "\n") + "\n") }
        } else {
            // Long waits are said even off a terminal, so a run never sits silent for a minute.
            trace = { @Sendable (event: TraceEvent) in
                if let notice = event.retryNotice { errorSink.write("gqlc: \(notice)\n") }
            }
        }
        return GraphQLClient(
            endpoint: endpoint, retry: RetryPolicy(maxRetries: globals.retries), cancellation: cancellation, trace: trace)
    }
}
