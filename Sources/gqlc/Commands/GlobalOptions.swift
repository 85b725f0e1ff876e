import GQLCore

/// The options every command accepts, before or after the command name, resolved against the environment.
///
/// Command-line values win over environment variables, which win over defaults. Nothing here reads files
/// or checks that the schema exists: the command that needs a setting reports its absence.
struct GlobalOptions: Equatable, Sendable {
    /// What the core resolves the run's context from: the schema file, the endpoint and its auth, the headers, the CA
    /// file, the timeout, response limit and retries, and conflict detection, each with where it was given.
    var context: ContextSettings
    /// `GQLC_REALTIME_ENDPOINT`: the real-time WebSocket URL for subscriptions (`--realtime-endpoint` wins).
    var realtimeEndpoint: Setting<String>?
    /// Whether mutations are retried too (they might then apply twice).
    var retryMutations = false
    /// Print the request body instead of sending it.
    var dryRun = false
    /// Trace requests and responses on standard error, with secrets redacted.
    var verbose = false
    var output: OutputFormat = .json
    /// `--output` was given: `models` then prints JSON instead of text.
    var outputGiven = false
    var layout: JSONLayout = .automatic
    /// Print the whole `{data, errors}` response instead of the decoded result.
    var rawResponse = false
    /// Print AWSJSON fields as JSON instead of as the strings the server sends.
    var decodeJSONFields = false
    /// `--color`, else `never` when `NO_COLOR` is set, else `auto`.
    var color: ColorMode = .auto
    /// `--quiet`: no progress line on standard error.
    var quiet = false
    /// `--yes`: confirmations (deleting what `--where` matched, writing to a protected environment) are answered yes.
    var yes = false
    /// The named environment `--env` or `GQLC_ENV` selected, with what it set (see ``SelectedEnvironment``).
    var environment: SelectedEnvironment?
    /// The config file of named environments (`GQLC_CONFIG`, else under `XDG_CONFIG_HOME` or the home folder).
    var configPath: String?
    /// The options and environment these settings were resolved from, for ``selecting(environment:)``.
    var parsedOptions = ParsedOptions()
    var processEnvironment: [String: String] = [:]

    /// `--output json|ndjson|table|tsv|raw` (`-o`): the core's formats, with their writers.
    typealias OutputFormat = GQLCore.OutputFormat

    /// `--color auto|always|never`.
    enum ColorMode: String, Sendable, Choice {
        /// When standard output is a terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
        case auto
        case always
        case never
    }

    /// `--token-use access|id`.
    enum TokenUse: String, Sendable, Choice {
        /// The access token, as Amplify's libraries send.
        case access
        /// The ID token, which carries e-mail and custom claims.
        case id
    }

    /// `--pretty` / `--compact`.
    enum JSONLayout: Sendable, Equatable {
        /// Pretty on a terminal, compact otherwise.
        case automatic
        case pretty
        case compact
    }

    /// The default schema file, looked up in the working directory and then its parents.
    static let defaultSchemaPath = "the nearest Amplify schema"

    // MARK: - Declarations

    static let schemaOption = OptionSpec(
        long: "schema", value: "FILE", default: defaultSchemaPath, environment: "GQLC_SCHEMA",
        help: "The model schema: model-introspection JSON, amplify_outputs.json, amplifyconfiguration.json, the @model "
            + "schema.graphql (or a folder of .graphql files), or aws-exports.js. Without it, gqlc looks in . and its parents "
            + "for amplify_outputs.json or amplify/backend/api/NAME/schema.graphql (or NAME/schema/).")
    static let endpointOption = OptionSpec(
        long: "endpoint", value: "URL", environment: "GQLC_ENDPOINT",
        help: "The GraphQL endpoint. Defaults to the URL in the schema file when it has one.")
    static let apiKeyOption = OptionSpec(
        long: "api-key", value: "KEY", environment: "GQLC_API_KEY",
        help: "Send KEY in the x-api-key header (AppSync API-key auth). @FILE reads it from FILE, - from standard "
            + "input: other users can see a flag's value in ps, so prefer those or GQLC_API_KEY.")
    static let authTokenOption = OptionSpec(
        long: "auth-token", value: "TOKEN", environment: "GQLC_AUTH_TOKEN",
        help: "Send TOKEN as the Authorization header, as given (no 'Bearer' prefix is added). @FILE reads it from "
            + "FILE, - from standard input: other users can see a flag's value in ps, so prefer those or GQLC_AUTH_TOKEN.")
    static let iamOption = OptionSpec(
        long: "iam", environment: "GQLC_IAM",
        help: "Sign requests with AWS SigV4 (AppSync IAM auth), with credentials found as the AWS CLI finds them "
            + "(environment, profile, SSO, roles, credential_process, container, instance). On by default when "
            + "no API key or token is given and the schema file's default authorization type is AWS_IAM.")
    static let regionOption = OptionSpec(
        long: "region", value: "REGION",
        help: "The AWS region to sign for. Defaults to the region in an AppSync endpoint's host name, the schema "
            + "file's region, the AWS profile's region, then AWS_REGION or AWS_DEFAULT_REGION.")
    static let profileOption = OptionSpec(
        long: "profile", value: "NAME",
        help: "Sign with IAM credentials from this profile of ~/.aws/config and ~/.aws/credentials (AWS_CONFIG_FILE, "
            + "AWS_SHARED_CREDENTIALS_FILE): keys, a role, SSO or credential_process; it wins over AWS_ACCESS_KEY_ID. "
            + "Else AWS_PROFILE, else 'default'. Implies --iam when no API key or token is given.")
    static let authModeOption = OptionSpec(
        long: "auth-mode", value: AuthMode.placeholder, environment: "GQLC_AUTH_MODE",
        help: "The AppSync authorization mode. Without it, model commands take the first mode the model's auth rules "
            + "allow among the schema file's authorization types, in the order Amplify's multi-auth uses; userPool "
            + "sends the token stored by 'gqlc login'.")
    static let tokenUseOption = OptionSpec(
        long: "token-use", value: TokenUse.placeholder, default: TokenUse.access.word,
        help: "Which stored user-pool token to send: access, as Amplify does, or id (for rules on e-mail or custom claims).")
    static let headerOption = OptionSpec(
        long: "header", short: "H", value: "'NAME: VALUE'", repeatable: true,
        help: "Add an HTTP header to every request.")
    static let caCertOption = OptionSpec(
        long: "cacert", value: "FILE", environment: "CURL_CA_BUNDLE",
        help: "Verify HTTPS servers with the CA certificates in FILE (PEM) instead of the system's, e.g. for a "
            + "private CA. Without it and $CURL_CA_BUNDLE, $SSL_CERT_FILE is read.")
    /// The variable read when neither `--cacert` nor `CURL_CA_BUNDLE` is set (as curl does).
    static let caCertFallbackVariable = "SSL_CERT_FILE"

    /// Whether a variable set but empty counts as unset: gqlc's own, and the CA file's (as curl reads them).
    static func emptyMeansUnset(_ name: String) -> Bool {
        name.hasPrefix("GQLC_") || name == caCertOption.environmentVariable || name == caCertFallbackVariable
    }
    /// Read by `subscribe`, whose `--realtime-endpoint` names it.
    static let realtimeEndpointVariable = "GQLC_REALTIME_ENDPOINT"
    static let timeoutOption = OptionSpec(
        long: "timeout", value: "SECONDS", default: ValueParsing.text(seconds: Defaults.timeout), help: "Give up on a request after SECONDS.")
    static let maxResponseOption = OptionSpec(
        long: "max-response-mib", value: "N", default: String(Defaults.maxResponseMiB),
        help: "Stop reading a response once it holds more than N MiB (decoded), instead of running out of memory.")
    static let retriesOption = OptionSpec(
        long: "retries", value: "N", default: String(Defaults.retries),
        help: "Retry a query up to N times after a network error, a timeout, HTTP 429, 500, 502, 503 or 504.")
    static let retryMutationsOption = OptionSpec(
        long: "retry-mutations", help: "Retry mutations too, where a retry cannot apply twice: a create keeps its key, an update or delete needs --if.")
    static let dryRunOption = OptionSpec(
        long: "dry-run", help: "Print the JSON body that would be POSTed, and exit without sending it.")
    static let verboseOption = OptionSpec(
        long: "verbose", short: "v", help: "Trace requests and responses on standard error (secrets redacted).")
    static let outputOption = OptionSpec(
        long: "output", short: "o", value: OutputFormat.placeholder, default: OutputFormat.json.word,
        help: "json prints one JSON document; ndjson prints one record per line (list items stream; an array result is split); "
            + "table prints columns fitted to the terminal; tsv prints tab-separated columns under a header line; raw prints "
            + "the one field of --fields per line, strings unquoted (as jq -r). table, tsv and raw print records (get, list, "
            + "create, update, delete, query, mutate, raw). models prints text unless this is given.")
    static let colorOption = OptionSpec(
        long: "color", value: ColorMode.placeholder, default: ColorMode.auto.word,
        help: "Colour JSON and tables: auto colours when standard output is a terminal and NO_COLOR is not set.")
    static let noColorOption = OptionSpec(
        long: "no-color", means: colorOption, ColorMode.never.word, help: "The same as --color never.")
    static let quietOption = OptionSpec(
        long: "quiet", short: "q", help: "Show no progress line on standard error (shown only when it is a terminal).")
    static let prettyOption = OptionSpec(
        long: "pretty", help: "Indent the JSON output (the default when standard output is a terminal).")
    static let compactOption = OptionSpec(
        long: "compact", help: "Print the JSON output on one line (the default when it is not a terminal).")
    static let rawResponseOption = OptionSpec(
        long: "raw-response", help: "Print the whole response envelope, {\"data\": …, \"errors\": […]}.")
    static let decodeJSONFieldsOption = OptionSpec(
        long: "decode-json-fields", help: "Print AWSJSON fields as JSON values instead of the strings the server sends.")
    static let conflictDetectionOption = OptionSpec(
        long: "conflict-detection", value: ConflictDetectionSetting.placeholder, default: ConflictDetectionSetting.auto.word,
        environment: "GQLC_CONFLICT_DETECTION",
        help: "Whether the models have AppSync conflict detection (a Gen 1 DataStore API: _version, soft deletes, sync). "
            + "auto reads it from transform.conf.json beside a Gen 1 schema.graphql, or from _version on a pulled type; "
            + "on, optimistic, automerge or lambda say so for every model; off says no model has it.")
    static let envOption = OptionSpec(
        long: "env", value: "NAME", environment: EnvironmentConfig.selectionVariable,
        help: "Take settings from the named environment NAME of gqlc's config file (see 'gqlc help env'); flags and "
            + "GQLC_* variables still win.")
    static let yesOption = OptionSpec(
        long: "yes", short: "y",
        help: "Answer yes to confirmations: deleting what --where matched or --cascade found, and writes to a protected "
            + "environment (needed when standard input is not a terminal).")
    static let helpOption = OptionSpec(long: "help", short: "h", help: "Show help for gqlc or for the command.")
    static let helpAllOption = OptionSpec(
        long: "help-all", help: "Show the help with every global option explained (as 'gqlc help options' does).")
    static let versionOption = OptionSpec(long: "version", help: "Print the version of gqlc.")

    /// Every global option, in help-page order.
    static let all: [OptionSpec] = [
        envOption, schemaOption, endpointOption, apiKeyOption, authTokenOption, iamOption, regionOption, profileOption,
        authModeOption, tokenUseOption, headerOption, caCertOption, timeoutOption, maxResponseOption,
        retriesOption,
        retryMutationsOption, dryRunOption, verboseOption, quietOption, outputOption, prettyOption, compactOption,
        colorOption, noColorOption, rawResponseOption, decodeJSONFieldsOption, conflictDetectionOption, yesOption,
        helpOption, helpAllOption, versionOption,
    ]

    // MARK: - Decoding

    /// The settings, from the parsed options with fallbacks to `environment`, then to the named environment `selected`
    /// (which ``resolve(options:environment:)`` reads from the config file), in the core's order (``SettingSources``).
    init(options: ParsedOptions, environment: [String: String], selected: SelectedEnvironment? = nil) throws(UsageError) {
        let lookup = OptionSources(options: options, sources: SettingSources(variables: environment, selected: selected))
        self.environment = selected
        configPath = EnvironmentConfig.path(environment: environment)
        parsedOptions = options
        processEnvironment = environment
        context = ContextSettings(schema: lookup.text(Self.schemaOption) ?? Setting(value: Self.defaultSchemaPath, origin: .default))
        if let text = lookup.text(Self.endpointOption) {
            do throws(EndpointSettingProblem) {
                context.endpoint = Setting(value: try EndpointURL.setting(text.value), origin: text.origin)
            } catch {
                throw UsageError("invalid endpoint '\(EndpointURL.maskingUserInfo(text.value))' from "
                    + "\(text.origin.describe(Self.endpointOption)): \(error)")
            }
        }
        context.apiKey = lookup.text(Self.apiKeyOption).map { Setting(value: Secret(value: $0.value), origin: $0.origin) }
        context.authToken = lookup.text(Self.authTokenOption).map { Setting(value: Secret(value: $0.value), origin: $0.origin) }
        do throws(SettingError) {
            context.iam = try lookup.sources.flag(given: options.contains(Self.iamOption), lookup.source(Self.iamOption))
        } catch {
            throw UsageError(error.description)
        }
        context.region = lookup.text(Self.regionOption)?.value
        context.profile = lookup.text(Self.profileOption)?.value
        context.awsEnvironment = environment.filter { $0.key.hasPrefix("AWS_") || $0.key == "HOME" }
        context.cacheDirectory = SchemaDiscovery.cacheDirectory(environment: environment)
        // The user-pool options' variables, by the names their specs give; the others say where tokens are stored.
        let variable = { (option: OptionSpec) in option.environmentVariable.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 } }
        context.userPool = UserPoolOverrides(
            poolId: variable(UserPoolOptions.userPoolId), clientId: variable(UserPoolOptions.clientId),
            clientSecret: variable(UserPoolOptions.clientSecret), endpoint: variable(UserPoolOptions.cognitoEndpoint))
        context.tokenStoreEnvironment = environment.filter { ["XDG_CONFIG_HOME", "HOME"].contains($0.key) && !$0.value.isEmpty }
        context.authMode = try Self.choice(lookup.text(Self.authModeOption), Self.authModeOption)
        let detection: Setting<ConflictDetectionSetting>? = try Self.choice(lookup.text(Self.conflictDetectionOption), Self.conflictDetectionOption)
        context.conflictDetection = detection.map { setting in
            // How `models` says where the setting came from.
            let source = switch setting.origin {
            case .environment(let name): "$\(name)"
            default: "\(Self.conflictDetectionOption.flagName) \(setting.value.word)"
            }
            return ConflictDetectionOverride(setting.value, source: source)
        }
        context.sendsIDToken = try Self.choice(lookup.text(Self.tokenUseOption), Self.tokenUseOption)?.value == TokenUse.id

        let headers = try options.values(Self.headerOption).map { text throws(UsageError) in try Self.header(text) }
        // The environment's headers come first; one of the same name on the command line replaces it.
        let given = Set(headers.map { $0.name.lowercased() })
        do throws(EnvironmentError) {
            context.headers = try lookup.sources.namedHeaders().filter { !given.contains($0.name.lowercased()) } + headers
        } catch {
            throw UsageError(commandLineMessage(error))
        }
        context.caFile = lookup.text(Self.caCertOption)
            ?? lookup.sources.text(SettingSource(given: nil, variable: Self.caCertFallbackVariable, key: nil))
        realtimeEndpoint = lookup.sources.text(
            SettingSource(given: nil, variable: Self.realtimeEndpointVariable, key: .realtimeEndpoint))
        yes = options.contains(Self.yesOption)
        if let seconds = try options.positiveSeconds(Self.timeoutOption) { context.timeout = seconds }
        if let text = options.value(Self.maxResponseOption) {
            context.maxResponseMiB = try ValueParsing.positiveInteger(text, for: Self.maxResponseOption)
            guard context.maxResponseMiB <= 1 << 20 else {
                throw ValueParsing.invalid(text, for: Self.maxResponseOption, expected: "at most 1048576 (1 TiB)")
            }
        }
        if let text = options.value(Self.retriesOption) {
            context.retries = try ValueParsing.nonNegativeInteger(text, for: Self.retriesOption)
        }
        retryMutations = options.contains(Self.retryMutationsOption)
        dryRun = options.contains(Self.dryRunOption)
        verbose = options.contains(Self.verboseOption)
        rawResponse = options.contains(Self.rawResponseOption)
        decodeJSONFields = options.contains(Self.decodeJSONFieldsOption)

        let commandLine = { (option: OptionSpec) in options.value(option).map { Setting(value: $0, origin: .commandLine) } }
        if let format: OutputFormat = try Self.choice(commandLine(Self.outputOption), Self.outputOption)?.value {
            output = format
            outputGiven = true
        }
        quiet = options.contains(Self.quietOption)
        if let mode: ColorMode = try Self.choice(commandLine(Self.colorOption), Self.colorOption)?.value {
            color = mode
        } else if let value = environment["NO_COLOR"], !value.isEmpty {
            color = .never
        }
        if environment["TERM"] == "dumb", color == .auto { color = .never }
        if output.isRecordFormat, rawResponse {
            throw UsageError("option '--raw-response' prints the JSON envelope; it cannot be used with '--output \(output.word)'")
        }
        try options.expectExclusive(Self.prettyOption, Self.compactOption)
        if options.contains(Self.prettyOption) {
            guard output == .json else {
                throw UsageError("option '--pretty' applies to '--output json' only, not '--output \(output.word)'")
            }
            layout = .pretty
        } else if options.contains(Self.compactOption) {
            layout = .compact
        }
    }

    /// A setting that is one of a choice's words; a bad value names whichever place gave it.
    private static func choice<Value: Choice & Equatable>(
        _ text: Setting<String>?, _ option: OptionSpec
    ) throws(UsageError) -> Setting<Value>? {
        guard let text else { return nil }
        guard let value = Value.parse(text.value) else {
            throw UsageError("invalid value '\(text.value)' for \(text.origin.describe(option)): expected \(Value.alternatives)")
        }
        return Setting(value: value, origin: text.origin)
    }

    /// A `--header 'Name: value'`, checked as the core checks headers.
    static func header(_ text: String) throws(UsageError) -> HTTPHeader {
        do {
            return try HTTPHeader.parse(text)
        } catch {
            throw UsageError(error.commandLineMessage)
        }
    }
}

/// The core's ``SettingSources`` asked with an option: its value on the command line, its variable, and its key in a
/// named environment (``SelectedEnvironment/key(for:)``).
struct OptionSources {
    let options: ParsedOptions
    let sources: SettingSources

    /// Where `option` may be given; a switch given on the command line counts as given.
    func source(_ option: OptionSpec) -> SettingSource {
        SettingSource(
            given: options.value(option) ?? (options.contains(option) ? "" : nil), variable: option.environmentVariable,
            key: SelectedEnvironment.key(for: option))
    }

    /// The option's text, from the first place that has it.
    func text(_ option: OptionSpec) -> Setting<String>? { sources.text(source(option)) }
}

extension AuthMode: Choice {}

extension OutputFormat: Choice {}
