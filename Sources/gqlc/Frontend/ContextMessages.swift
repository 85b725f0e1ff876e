import GQLCore

extension SettingOrigin {
    /// `'--endpoint'`, `$GQLC_ENDPOINT`, `environment 'prod' (~/.config/gqlc/config:3)` or `the default`.
    func describe(_ option: OptionSpec) -> String { describe(naming: option.flagName) }
}

extension RunFailure {
    /// A context that cannot be resolved, phrased with the flags and variables that fix it.
    init(_ error: ContextError) {
        switch error {
        case .schema(let error): self = .schema(error)
        case .endpoint(let error): self = .endpoint(error)
        case .awsAuth(let error): self = .awsAuth(error)
        case .cognito(let error): self = .cognito(error)
        default: self = .usage(error.commandLineMessage)
        }
    }
}

extension ContextError {
    /// The message with the flags, variables and commands that fix it.
    var commandLineMessage: String {
        let (endpoint, schema) = (GlobalOptions.endpointOption.flagName, GlobalOptions.schemaOption.flagName)
        let authMode = GlobalOptions.authModeOption.flagName
        switch self {
        case .noEndpoint(let search):
            let fileNote = switch search {
            case .gen1Schema(let path): "\(path) (it has no endpoint, and no src/aws-exports.js was found beside its project)"
            case .schemaFile(let path): "\(path) (it has no endpoint)"
            case .noSchemaFound(let directory): "\(SchemaDiscovery.defaultFileName) (none in \(directory))"
            case .schemaNotFound(let path): "\(path) (not found)"
            }
            return "no endpoint: looked in \(endpoint), $GQLC_ENDPOINT and \(fileNote); pass \(endpoint) URL or set GQLC_ENDPOINT"
        case .apiKeyMissing:
            return "auth mode apiKey needs an API key: pass \(GlobalOptions.apiKeyOption.flagName) KEY or set GQLC_API_KEY"
        case .tokenMissing:
            return "this auth mode sends a token you supply: pass \(GlobalOptions.authTokenOption.flagName) TOKEN or set "
                + "GQLC_AUTH_TOKEN"
        case .unreadableCAFile(let path, let origin, let reason):
            return "cannot read the CA certificates file '\(path)' from \(origin.describe(GlobalOptions.caCertOption)): \(reason)"
        case .profileWithOtherAuth(let other, let origin):
            return "\(GlobalOptions.profileOption.flagName) takes IAM (SigV4) credentials, but "
                + "\(origin.describe(other.option ?? GlobalOptions.apiKeyOption)) "
                + "chooses another auth; leave out one of them"
        case .iamOnly(let parameter):
            return "\(parameter.flagName) applies to IAM (SigV4) auth only, which this request does not use; "
                + "add \(GlobalOptions.iamOption.flagName), or leave out \(parameter.flagName)"
        case .iamWithOtherAuth(let iam, let other, let origin):
            return "\(iam.describe(GlobalOptions.iamOption)) and \(origin.describe(other.option ?? GlobalOptions.apiKeyOption)) "
                + "cannot be used together: IAM auth signs requests instead of sending an API key or token"
        case .authModeUnused(let mode, let parameter):
            return "\(authMode) \(mode.rawValue) does not use \(parameter.flagName); leave out one of them"
        case .authRulesUnmet(let model, let rules, let file, let configured):
            return "\(model)'s auth rules allow \(rules.joined(separator: ", ")), but \(file) configures only "
                + configured.map(\.rawValue).joined(separator: ", ") + "; pass \(authMode) to choose one anyway"
        case .severalGen1APIs(let paths):
            return "several Gen 1 APIs: " + paths.joined(separator: ", ") + "; pass \(schema) with the one to use"
        case .noSchemaFile(let directory):
            return "no model schema: no \(SchemaDiscovery.defaultFileName) or \(SchemaDiscovery.gen1SchemaPattern) (or schema/) in "
                + "\(directory); pass \(schema) FILE or set GQLC_SCHEMA (model-introspection JSON, amplify_outputs.json, "
                + "amplifyconfiguration.json, schema.graphql, a schema/ folder or aws-exports.js), or run gqlc schema pull "
                + "\(endpoint) URL"
        case .damagedCache(let error):
            // A cache written by an older gqlc, or cut short: say how to make it again.
            return error.description + "; run gqlc schema pull again to replace this cached schema"
        case .noModels(let file, let format):
            return "\(file): this \(format) file has no models, and no \(SchemaDiscovery.gen1SchemaPattern) "
                + "or pulled schema was found for it; pass \(schema) with a model schema, or run gqlc schema pull"
        case .noUserPool(let missingPoolId, let file):
            let missing = missingPoolId ? "user pool id" : "app client id"
            let place = file.map { "\($0) has no auth.\(missingPoolId ? "user_pool_id" : "user_pool_client_id")" }
                ?? "no schema file was found"
            return "no Cognito \(missing): \(place); pass \(UserPoolOptions.userPoolId.flagName) and "
                + "\(UserPoolOptions.clientId.flagName) (or set GQLC_USER_POOL_ID "
                + "and GQLC_CLIENT_ID)"
        case .schema, .endpoint, .awsAuth, .cognito: return RunFailure(self).message
        case .noModelSchema, .invalidUserPoolId, .noTokenStore, .prompt: return description
        }
    }
}

extension ContextNote {
    /// The `--verbose` line: the core's words, else the setting or command named as on the command line.
    var commandLineText: String { "* " + (message ?? phrased ?? "") }

    /// The notes that name where a setting was given, or a command; nil for the others, which have the core's words
    /// (``message``): never a dump of the note, whose values may hold credentials.
    private var phrased: String? {
        switch self {
        case .schemaFile(let path, let source):
            let how = switch source {
            case .setting(.commandLine): GlobalOptions.schemaOption.flagName
            case .setting(.environment(let name)): "$\(name)"
            case .setting(let origin): origin.describe(GlobalOptions.schemaOption)
            case .nearestOutputs: "the nearest \(SchemaDiscovery.defaultFileName) from the working directory"
            case .nearestGen1Schema: "the nearest Gen 1 @model schema from the working directory"
            }
            return "schema: \(path) (\(how))"
        case .cachedSchema(let path, let endpoint): return "schema: \(path) (pulled from \(endpoint) by gqlc schema pull)"
        case .authMode(let mode, .setting(let origin)): return "auth mode: \(mode.rawValue) (\(origin.describe(GlobalOptions.authModeOption)))"
        case .credentialsRefresh(.failed(let error, let keeping)):
            return "credentials refresh failed, still using \(HeaderRedaction.keyID(keeping)): \(error.commandLineMessage)"
        default: return nil
        }
    }
}
