/// Why an ``APIContext`` (or a part of it: the schema, the endpoint, the auth) cannot be resolved from
/// ``ContextSettings``. A front end phrases each case in its own words (which flag or variable to set); the
/// description here is in the core's.
public enum ContextError: Error, Sendable, Equatable, CustomStringConvertible {
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

    /// The message in the core's words.
    public var description: String {
        switch self {
        case .noEndpoint: "no endpoint was given or found"
        case .endpoint(let error): error.description
        case .apiKeyMissing: "auth mode apiKey needs an API key"
        case .tokenMissing: "this auth mode sends a token you supply"
        case .unreadableCAFile(let path, _, let reason): "cannot read the CA certificates file '\(path)': \(reason)"
        case .awsAuth(let error): error.description
        case .profileWithOtherAuth(let other, _): "a profile takes IAM (SigV4) credentials, but the \(other.label) chooses another auth"
        case .iamOnly(let parameter): "the \(parameter.label) applies to IAM (SigV4) auth only, which this request does not use"
        case .iamWithOtherAuth(_, let other, _): "IAM auth and the \(other.label) cannot be used together"
        case .authModeUnused(let mode, let parameter): "auth mode \(mode.rawValue) does not use the \(parameter.label)"
        case .authRulesUnmet(let model, _, let file, _): "\(model)'s auth rules allow none of the auth modes \(file) configures"
        case .severalGen1APIs(let paths): "several Gen 1 APIs: " + paths.joined(separator: ", ")
        case .noSchemaFile(let directory): "no model schema in \(directory)"
        case .schema(let error), .damagedCache(let error): error.description
        case .noModelSchema: "no model schema"
        case .noModels(let file, let format): "\(file): this \(format) file has no models"
        case .noUserPool(let missingPoolId, _): "no Cognito \(missingPoolId ? "user pool id" : "app client id")"
        case .invalidUserPoolId(let id): "invalid user pool id '\(id)': expected REGION_ID, e.g. us-east-1_AbC123"
        case .noTokenStore: "no place for the token file: set XDG_CONFIG_HOME or HOME"
        case .cognito(let error): error.description
        case .prompt(let message): message
        }
    }
}

/// What a resolution found and chose, for a verbose trace (never a secret): a front end phrases each.
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
    /// The note in words (`config: amplify/src/aws-exports.js (the project's aws-exports.js)`), for the notes that name
    /// no setting and no command; nil for the others (where a setting was given, what made the cached schema, a failed
    /// refresh's error), which a front end phrases with its own names.
    public var message: String? {
        switch self {
        case .companionConfig(let path): "config: \(path) (the project's aws-exports.js)"
        case .companionModels(let path): "models: \(path) (the project's @model schema)"
        case .assumed(let line): "assumed: \(line)"
        case .authMode(let mode, .modelRules(let model, let configured)):
            "auth mode: \(mode.rawValue) (the first of \(model)'s rules, in Amplify's multi-auth order, "
                + "among the configured \(configured.map(\.rawValue).joined(separator: ", ")))"
        case .authMode(let mode, .defaultType(let file)): "auth mode: \(mode.rawValue) (the default authorization type of \(file))"
        case .credentials(let found): "credentials: \(HeaderRedaction.keyID(found.credentials.accessKeyID)) from \(found.source)"
        case .credentialsRefresh(.refreshed(let found)):
            "credentials refreshed: \(HeaderRedaction.keyID(found.credentials.accessKeyID)) from \(found.source)"
        case .refreshingTokens: "refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)"
        case .shortSecret:
            "warning: a key or token is shorter than \(Redactor.shortSecretLength) characters, "
                + "which is unusual; it is redacted only where it stands as a whole word"
        case .schemaFile, .cachedSchema, .authMode(_, .setting), .credentialsRefresh(.failed): nil
        }
    }
}
