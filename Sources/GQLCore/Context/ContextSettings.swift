/// A setting's value and where it came from, so that messages can say where a wrong value was given.
public struct Setting<Value: Equatable & Sendable>: Equatable, Sendable {
    /// The value.
    public let value: Value
    /// Where it was given.
    public let origin: SettingOrigin

    /// A value given at `origin`.
    public init(value: Value, origin: SettingOrigin) {
        self.value = value
        self.origin = origin
    }
}

/// Where a setting came from.
public enum SettingOrigin: Equatable, Sendable {
    case commandLine
    /// The environment variable's name.
    case environment(String)
    /// A named environment of the config file: its name, the file and the setting's line.
    case named(environment: String, path: String, line: Int)
    case `default`

    /// `'NAME'` (the front end's name for the setting), `$VARIABLE`, `environment 'prod' (~/.config/gqlc/config:3)`
    /// or `the default`.
    public func describe(naming name: String) -> String {
        switch self {
        case .commandLine: "'\(name)'"
        case .environment(let variable): "$\(variable)"
        case .named(let environment, let path, let line): "environment '\(environment)' (\(path):\(line))"
        case .default: "the default"
        }
    }

    /// Precedence: the command line over variables over a named environment over defaults.
    public var rank: Int {
        switch self {
        case .commandLine: 3
        case .environment: 2
        case .named: 1
        case .default: 0
        }
    }
}

/// What an ``APIContext`` is resolved from: the schema source, the endpoint and its auth, and how requests are sent,
/// each with where it was given. A front end fills it (gqlc from its options, environment and named environment).
/// The API key and the token print as `<redacted>` (``Secret``); never print the settings whole, as the AWS variables,
/// the headers and a user pool's client secret are kept as given.
public struct ContextSettings: Equatable, Sendable {
    /// The schema file; its origin is `.default` when none was named (it is then searched for).
    public var schema: Setting<String>
    /// The GraphQL endpoint URL, when given (else the schema file's), checked by ``EndpointURL/setting(_:)``.
    public var endpoint: Setting<EndpointURL>?
    /// The AppSync API key, sent as `x-api-key`.
    public var apiKey: Setting<Secret>?
    /// A token sent as `Authorization`, exactly as given (no `Bearer` prefix is added).
    public var authToken: Setting<Secret>?
    /// IAM (SigV4) auth asked for.
    public var iam: Setting<Bool>?
    /// The region to sign for; when nil, the endpoint's host, the schema file, the profile and the variables say.
    public var region: String?
    /// The AWS profile to take credentials from.
    public var profile: String?
    /// The `AWS_*` variables (and `HOME`) the credential chain reads.
    public var awsEnvironment: [String: String] = [:]
    /// Where `schema pull` caches schemas, by endpoint (``SchemaDiscovery/cacheDirectory(environment:)``).
    public var cacheDirectory: String?
    /// The auth mode asked for; when nil, the model's auth rules and the schema file choose.
    public var authMode: Setting<AuthMode>?
    /// Send the user pool's ID token instead of its access token.
    public var sendsIDToken = false
    /// The user pool given by settings (a front end's variables), over the schema file's.
    public var userPool = UserPoolOverrides()
    /// The variables that say where tokens are kept (`XDG_CONFIG_HOME`, `HOME`).
    public var tokenStoreEnvironment: [String: String] = [:]
    /// Headers added to every request.
    public var headers: [HTTPHeader] = []
    /// A PEM file of CA certificates to verify HTTPS servers with instead of the system's.
    public var caFile: Setting<String>?
    /// Seconds to wait for each HTTP request.
    public var timeout: Double = Defaults.timeout
    /// The most a response may hold, in MiB.
    public var maxResponseMiB: Int = Defaults.maxResponseMiB
    /// How many times a request is retried after a network error, a timeout, 429 or 5xx.
    public var retries: Int = Defaults.retries
    /// The conflict-detection setting applied over the schema's, with how the front end names where it came from.
    public var conflictDetection: ConflictDetectionOverride?

    /// Settings with the schema source only; the rest at their defaults.
    public init(schema: Setting<String>) {
        self.schema = schema
    }
}

/// A conflict-detection setting applied over what the schema shows, with the words that say where it was given (a
/// front end's), which a model's ``ConflictDetection/source`` then carries.
public struct ConflictDetectionOverride: Equatable, Sendable {
    /// The setting (`auto` leaves the schema as it is).
    public var setting: ConflictDetectionSetting
    /// Where it was given, as the front end names it.
    public var source: String

    /// `setting`, given at the place `source` names.
    public init(_ setting: ConflictDetectionSetting, source: String) {
        self.setting = setting
        self.source = source
    }
}

/// What a resolution asks of the person running it: answers that cannot come from settings.
public protocol ContextPrompts: Sendable {
    /// The MFA code for the device `serial`, or nil when none can be asked for.
    func mfaCode(serial: String) -> String?
    /// The app client secret given as `value` (which may say where to read it from).
    func clientSecret(_ value: String) throws(ContextError) -> String
}

/// Prompts for a resolution that must not ask anything (shell completion, a batch program): no MFA code, and a
/// client secret only as given.
public struct UnattendedPrompts: ContextPrompts {
    /// Prompts that ask nothing.
    public init() {}

    public func mfaCode(serial: String) -> String? { nil }

    public func clientSecret(_ value: String) throws(ContextError) -> String { value }
}
