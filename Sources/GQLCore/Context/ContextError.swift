/// Why an ``APIContext`` (or a part of it: the schema, the endpoint, the auth) cannot be resolved from
/// ``ContextSettings``. The message says what to give or do; a front end names the parameters, their variables and the
/// remedies (``ParameterizedMessage/message(naming:variable:remedy:)``), the description is in the core's words.
public enum ContextError: Error, Sendable, Equatable, ParameterizedMessage {
    /// Where the endpoint was looked for when none was found.
    public enum EndpointSearch: Sendable, Equatable {
        /// A Gen 1 `@model` schema with no `aws-exports.js` beside its project.
        case gen1Schema(String)
        /// A schema file without an endpoint.
        case schemaFile(String)
        /// No schema file was named and none was found in the directory described.
        case noSchemaFound(directory: String)
        /// The named schema file was not found.
        case schemaNotFound(String)
    }

    /// No endpoint was given or found.
    case noEndpoint(EndpointSearch)
    /// The endpoint settings are unusable.
    case endpoint(EndpointError)
    /// The `apiKey` auth mode was chosen without an API key.
    case apiKeyMissing
    /// An auth mode that sends a token (OIDC, Lambda) was chosen without one.
    case tokenMissing
    /// The CA file cannot be read (it was given at `origin`).
    case unreadableCAFile(path: String, origin: SettingOrigin, reason: String)
    /// IAM auth has no region or credentials, or AWS refused.
    case awsAuth(AWSAuthError)
    /// A profile was given together with an API key or token (`parameter`, given at `origin`).
    case profileWithOtherAuth(Parameter, origin: SettingOrigin)
    /// A profile or region was given for a request that is not signed.
    case iamOnly(Parameter)
    /// IAM auth and an API key or token were given at the same level (`iam` and `other` origins).
    case iamWithOtherAuth(iam: SettingOrigin, other: Parameter, origin: SettingOrigin)
    /// The chosen auth mode does not use the given parameter.
    case authModeUnused(AuthMode, Parameter)
    /// A model's auth rules allow none of the auth modes the file configures.
    case authRulesUnmet(model: String, rules: [String], file: String, configured: [AuthMode])
    /// Several Gen 1 API schemas were found.
    case severalGen1APIs([String])
    /// No schema file was named or found, and no cached one (directory described).
    case noSchemaFile(directory: String)
    /// The schema file cannot be read or used.
    case schema(SchemaError)
    /// A cached (pulled) schema cannot be read: it should be pulled again.
    case damagedCache(SchemaError)
    /// No schema file at all.
    case noModelSchema
    /// The file (of the format named) has no models, and none were found beside it or in the cache.
    case noModels(file: String, format: String)
    /// The user pool id (or, when false, the app client id) is missing; `file` is the schema file looked in.
    case noUserPool(missingPoolId: Bool, file: String?)
    /// A user pool id not of the form `REGION_ID`.
    case invalidUserPoolId(String)
    /// No home for the token file.
    case noTokenStore
    /// User-pool sign-in or its stored tokens failed.
    case cognito(CognitoError)
    /// A prompt (``ContextPrompts``) failed, in its own words.
    case prompt(String)

    /// The message in the core's words, each parameter by its label and no variable named.
    public func message(naming name: (Parameter) -> String) -> String { message(naming: name, remedy: \.label) }

    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String {
        message(naming: name, variable: { _ in nil }, remedy: remedy)
    }

    /// The message with each parameter named by `name`, the variable that may give it by `variable` and each remedy
    /// by `remedy`: `no endpoint: looked in endpoint and …; give the endpoint` in the core's words.
    public func message(naming name: (Parameter) -> String, variable: (Parameter) -> String?, remedy: (Remedy) -> String) -> String {
        switch self {
        case .noEndpoint(let search):
            let looked = [name(.endpoint)] + (variable(.endpoint).map { ["$" + $0] } ?? [])
            return "no endpoint: looked in \(looked.joined(separator: ", ")) and \(search.place); \(remedy(.give(.endpoint)))"
        case .endpoint(let error): return error.message(naming: name, remedy: remedy)
        case .apiKeyMissing: return "auth mode apiKey needs an API key: \(remedy(.give(.apiKey)))"
        case .tokenMissing: return "this auth mode sends a token you supply: \(remedy(.give(.authToken)))"
        case .unreadableCAFile(let path, let origin, let reason):
            return "cannot read the CA certificates file '\(path)' from \(origin.describe(naming: name(.caFile))): \(reason)"
        case .awsAuth(let error): return error.message(naming: name, remedy: remedy)
        case .profileWithOtherAuth(let other, let origin):
            return "\(name(.profile)) takes IAM (SigV4) credentials, but \(origin.describe(naming: name(other))) chooses another auth; "
                + "leave out one of them"
        case .iamOnly(let parameter):
            return "\(name(parameter)) applies to IAM (SigV4) auth only, which this request does not use; add \(name(.iam)), or "
                + "leave out \(name(parameter))"
        case .iamWithOtherAuth(let iam, let other, let origin):
            return "\(iam.describe(naming: name(.iam))) and \(origin.describe(naming: name(other))) cannot be used together: IAM auth "
                + "signs requests instead of sending an API key or token"
        case .authModeUnused(let mode, let parameter):
            return "\(name(.authMode)) \(mode.rawValue) does not use \(name(parameter)); leave out one of them"
        case .authRulesUnmet(let model, let rules, let file, let configured):
            return "\(model)'s auth rules allow \(rules.joined(separator: ", ")), but \(file) configures only "
                + configured.map(\.rawValue).joined(separator: ", ") + "; pass \(name(.authMode)) to choose one anyway"
        case .severalGen1APIs(let paths):
            return "several Gen 1 APIs: " + paths.joined(separator: ", ") + "; pass \(name(.schema)) with the one to use"
        case .noSchemaFile(let directory):
            return "no model schema: no \(SchemaDiscovery.defaultFileName) or \(SchemaDiscovery.gen1SchemaPattern) (or schema/) in "
                + "\(directory); \(remedy(.give(.schema))) (model-introspection JSON, amplify_outputs.json, amplifyconfiguration.json, "
                + "schema.graphql, a schema/ folder or aws-exports.js), or run \(remedy(.schemaPull(from: .endpoint)))"
        case .schema(let error): return error.message(remedy: remedy)
        case .damagedCache(let error):
            // A cache written by an older gqlc, or cut short: say how to make it again.
            return error.description + "; run \(remedy(.schemaPull(from: nil))) again to replace this cached schema"
        case .noModelSchema: return "no model schema"
        case .noModels(let file, let format):
            return "\(file): this \(format) file has no models, and no \(SchemaDiscovery.gen1SchemaPattern) or pulled schema was "
                + "found for it; pass \(name(.schema)) with a model schema, or run \(remedy(.schemaPull(from: nil)))"
        case .noUserPool(let missingPoolId, let file):
            let place = file.map { "\($0) has no auth.\(missingPoolId ? "user_pool_id" : "user_pool_client_id")" } ?? "no schema file was found"
            let variables = [variable(.userPoolId), variable(.clientId)].compactMap { $0 }
            let or = variables.count == 2 ? " (or set \(variables.joined(separator: " and ")))" : ""
            return "no Cognito \((missingPoolId ? Parameter.userPoolId : .clientId).label): \(place); pass \(name(.userPoolId)) and "
                + "\(name(.clientId))\(or)"
        case .invalidUserPoolId(let id): return "invalid user pool id '\(id)': expected REGION_ID, e.g. us-east-1_AbC123"
        case .noTokenStore: return "no place for the token file: set XDG_CONFIG_HOME or HOME"
        case .cognito(.transport(let error)): return "Cognito: " + error.message(naming: name, remedy: remedy)
        case .cognito(let error): return error.message(remedy: remedy)
        case .prompt(let message): return message
        }
    }
}

extension ContextError.EndpointSearch {
    /// Where the endpoint was looked for besides the settings: `schema.graphql (it has no endpoint)`.
    var place: String {
        switch self {
        case .gen1Schema(let path): "\(path) (it has no endpoint, and no src/aws-exports.js was found beside its project)"
        case .schemaFile(let path): "\(path) (it has no endpoint)"
        case .noSchemaFound(let directory): "\(SchemaDiscovery.defaultFileName) (none in \(directory))"
        case .schemaNotFound(let path): "\(path) (not found)"
        }
    }
}

/// What a resolution found and chose, for a verbose trace (never a secret): ``message(naming:remedy:)`` says it, a
/// front end naming the settings and commands.
public enum ContextNote: Sendable, Equatable {
    /// Why the schema file was chosen.
    public enum SchemaSource: Sendable, Equatable {
        /// Named by a setting given at this origin.
        case setting(SettingOrigin)
        /// The nearest Amplify outputs file from the working directory.
        case nearestOutputs
        /// The nearest Gen 1 `@model` schema from the working directory.
        case nearestGen1Schema
    }

    /// Why an auth mode was chosen.
    public enum AuthModeReason: Sendable, Equatable {
        /// Asked for by a setting given at this origin.
        case setting(SettingOrigin)
        /// The first of the model's rules, in Amplify's multi-auth order, among the configured modes.
        case modelRules(model: String, configured: [AuthMode])
        /// The default authorization type of the schema file.
        case defaultType(file: String)
    }

    /// The schema file read.
    case schemaFile(String, SchemaSource)
    /// The project's `aws-exports.js` read for a Gen 1 schema's endpoint.
    case companionConfig(String)
    /// The project's `@model` schema read for a config file's models.
    case companionModels(String)
    /// The cached schema pulled from the endpoint.
    case cachedSchema(path: String, endpoint: String)
    /// One assumption recorded when the cached schema was pulled.
    case assumed(String)
    /// The auth mode chosen for the request.
    case authMode(AuthMode, AuthModeReason)
    /// AWS credentials resolved (once per resolver and its copies).
    case credentials(ResolvedCredentials)
    /// Temporary credentials refreshed, or their refresh failed.
    case credentialsRefresh(RefreshingCredentials.Event)
    /// The stored user-pool tokens are being refreshed.
    case refreshingTokens
    /// A key or token is shorter than ``Redactor/shortSecretLength``: it is redacted only as a whole word.
    case shortSecret
}

extension ContextNote {
    /// The note in words (`config: amplify/src/aws-exports.js (the project's aws-exports.js)`), with the setting that
    /// gave a value named by `name` and the command that made the cached schema by `remedy`: never a dump of the note,
    /// whose values may hold credentials.
    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String {
        switch self {
        case .schemaFile(let path, let source):
            let how = switch source {
            case .setting(.commandLine): name(.schema)
            case .setting(let origin): origin.describe(naming: name(.schema))
            case .nearestOutputs: "the nearest \(SchemaDiscovery.defaultFileName) from the working directory"
            case .nearestGen1Schema: "the nearest Gen 1 @model schema from the working directory"
            }
            return "schema: \(path) (\(how))"
        case .companionConfig(let path): return "config: \(path) (the project's aws-exports.js)"
        case .companionModels(let path): return "models: \(path) (the project's @model schema)"
        case .cachedSchema(let path, let endpoint): return "schema: \(path) (pulled from \(endpoint) by \(remedy(.schemaPull(from: nil))))"
        case .assumed(let line): return "assumed: \(line)"
        case .authMode(let mode, .setting(let origin)): return "auth mode: \(mode.rawValue) (\(origin.describe(naming: name(.authMode))))"
        case .authMode(let mode, .modelRules(let model, let configured)):
            return "auth mode: \(mode.rawValue) (the first of \(model)'s rules, in Amplify's multi-auth order, "
                + "among the configured \(configured.map(\.rawValue).joined(separator: ", ")))"
        case .authMode(let mode, .defaultType(let file)): return "auth mode: \(mode.rawValue) (the default authorization type of \(file))"
        case .credentials(let found): return "credentials: \(HeaderRedaction.keyID(found.credentials.accessKeyID)) from \(found.source)"
        case .credentialsRefresh(.refreshed(let found)):
            return "credentials refreshed: \(HeaderRedaction.keyID(found.credentials.accessKeyID)) from \(found.source)"
        case .credentialsRefresh(.failed(let error, let keeping)):
            return "credentials refresh failed, still using \(HeaderRedaction.keyID(keeping)): \(error.message(naming: name, remedy: remedy))"
        case .refreshingTokens: return "refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)"
        case .shortSecret:
            return "warning: a key or token is shorter than \(Redactor.shortSecretLength) characters, "
                + "which is unusual; it is redacted only where it stands as a whole word"
        }
    }
}
