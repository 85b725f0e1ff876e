import GQLCore

/// The options every command accepts, before or after the command name, resolved against the environment.
///
/// Command-line values win over environment variables, which win over defaults. Nothing here reads files
/// or checks that the schema exists: the command that needs a setting reports its absence.
struct GlobalOptions: Equatable, Sendable {
    /// The model schema, amplify_outputs.json or amplifyconfiguration.json to read.
    var schema: Setting<String>
    /// The GraphQL endpoint; when nil, the wiring takes it from the schema file (amplify_outputs.json).
    var endpoint: Setting<EndpointURL>?
    /// Sent as `x-api-key`.
    var apiKey: Setting<Secret>?
    /// Sent as `Authorization`, exactly as given (no `Bearer` prefix is added).
    var authToken: Setting<Secret>?
    /// Sign requests with AWS SigV4 (AppSync IAM auth): `--iam` or `GQLC_IAM`.
    var iam: Setting<Bool>?
    /// The AWS region to sign for (`--region`); the environment and the schema file are consulted later.
    var region: String?
    /// The shared-credentials profile given by `--profile`.
    var profile: String?
    /// The environment variables IAM auth reads (`AWS_*`, `HOME`), kept for when it is needed.
    var awsEnvironment: [String: String] = [:]
    /// Where `schema pull` caches schemas: `$XDG_CACHE_HOME/gqlc`, else `~/.cache/gqlc`.
    var cacheDirectory: String?
    /// `--auth-mode`: the AppSync authorization mode to use; nil lets the schema file's rules choose.
    var authMode: Setting<AuthMode>?
    /// `--token-use`: which user-pool token is sent.
    var tokenUse: TokenUse = .access
    /// The variables user-pool sign-in reads (`GQLC_USER_POOL_ID`, `GQLC_CLIENT_ID`, `GQLC_CLIENT_SECRET`,
    /// `GQLC_COGNITO_ENDPOINT`, `XDG_CONFIG_HOME`, `HOME`).
    var cognitoEnvironment: [String: String] = [:]
    /// Extra headers, in the order given.
    var headers: [HTTPHeader] = []
    /// A PEM file of CA certificates to verify HTTPS servers with instead of the system's (`--cacert`,
    /// `CURL_CA_BUNDLE`, `SSL_CERT_FILE`).
    var caFile: Setting<String>?
    /// `GQLC_REALTIME_ENDPOINT`: the real-time WebSocket URL for subscriptions (`--realtime-endpoint` wins).
    var realtimeEndpoint: Setting<String>?
    /// Seconds to wait for each HTTP request.
    var timeout: Double = Defaults.timeout
    /// The most MiB a decoded response may hold (`--max-response-mib`).
    var maxResponseMiB: Int = Defaults.maxResponseMiB
    /// How many times a query is retried after a network error, a timeout, 429 or 5xx.
    var retries: Int = Defaults.retries
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
    /// `--conflict-detection`: what the schema shows (auto), or said outright for every model.
    var conflictDetection: Setting<ConflictDetectionSetting>?
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
    /// (which ``resolve(options:environment:)`` reads from the config file).
    init(options: ParsedOptions, environment: [String: String], selected: SelectedEnvironment? = nil) throws(UsageError) {
        let lookup = EnvironmentLookup(options: options, environment: environment, selected: selected)
        self.environment = selected
        configPath = EnvironmentConfig.path(environment: environment)
        parsedOptions = options
        processEnvironment = environment
        schema = lookup.text(Self.schemaOption) ?? Setting(value: Self.defaultSchemaPath, origin: .default)
        if let text = lookup.text(Self.endpointOption) {
            endpoint = Setting(value: try Self.endpointURL(text), origin: text.origin)
        }
        apiKey = lookup.text(Self.apiKeyOption).map { Setting(value: Secret(value: $0.value), origin: $0.origin) }
        authToken = lookup.text(Self.authTokenOption).map { Setting(value: Secret(value: $0.value), origin: $0.origin) }
        iam = try lookup.flag(Self.iamOption)
        region = lookup.text(Self.regionOption)?.value
        profile = lookup.text(Self.profileOption)?.value
        awsEnvironment = environment.filter { $0.key.hasPrefix("AWS_") || $0.key == "HOME" }
        cacheDirectory = SchemaDiscovery.cacheDirectory(environment: environment)
        cognitoEnvironment = environment.filter { Self.cognitoVariables.contains($0.key) && !$0.value.isEmpty }
        authMode = try Self.choice(Self.authModeOption, lookup)
        conflictDetection = try Self.choice(Self.conflictDetectionOption, lookup)
        if let text = lookup.text(Self.tokenUseOption) {
            guard let use = TokenUse.parse(text.value) else {
                throw UsageError(
                    "invalid value '\(text.value)' for \(text.origin.describe(Self.tokenUseOption)): expected \(TokenUse.alternatives)")
            }
            tokenUse = use
        }

        var headers: [HTTPHeader] = []
        for text in options.values(Self.headerOption) {
            do {
                headers.append(try HTTPHeader.parse(text))
            } catch {
                throw UsageError(error.commandLineMessage)
            }
        }
        // The environment's headers come first; one of the same name on the command line replaces it.
        let given = Set(headers.map { $0.name.lowercased() })
        self.headers = try lookup.selectedHeaders().filter { !given.contains($0.name.lowercased()) } + headers
        caFile = lookup.text(Self.caCertOption)
        if caFile == nil, let value = environment[Self.caCertFallbackVariable] {
            caFile = Setting(value: value, origin: .environment(Self.caCertFallbackVariable))
        }
        if let value = environment[Self.realtimeEndpointVariable] {
            realtimeEndpoint = Setting(value: value, origin: .environment(Self.realtimeEndpointVariable))
        } else if let selected, let setting = selected.environment.setting(.realtimeEndpoint) {
            realtimeEndpoint = Setting(value: setting.value, origin: selected.origin(setting))
        }
        yes = options.contains(Self.yesOption)
        if let text = options.value(Self.timeoutOption) {
            timeout = try ValueParsing.positiveSeconds(text, for: Self.timeoutOption)
        }
        if let text = options.value(Self.maxResponseOption) {
            maxResponseMiB = try ValueParsing.positiveInteger(text, for: Self.maxResponseOption)
            guard maxResponseMiB <= 1 << 20 else {
                throw ValueParsing.invalid(text, for: Self.maxResponseOption, expected: "at most 1048576 (1 TiB)")
            }
        }
        if let text = options.value(Self.retriesOption) {
            retries = try ValueParsing.nonNegativeInteger(text, for: Self.retriesOption)
        }
        retryMutations = options.contains(Self.retryMutationsOption)
        dryRun = options.contains(Self.dryRunOption)
        verbose = options.contains(Self.verboseOption)
        rawResponse = options.contains(Self.rawResponseOption)
        decodeJSONFields = options.contains(Self.decodeJSONFieldsOption)

        if let text = options.value(Self.outputOption) {
            guard let format = OutputFormat.parse(text) else {
                throw ValueParsing.invalid(text, for: Self.outputOption, expected: OutputFormat.alternatives)
            }
            output = format
            outputGiven = true
        }
        quiet = options.contains(Self.quietOption)
        if let text = options.value(Self.colorOption) {
            guard let mode = ColorMode.parse(text) else {
                throw ValueParsing.invalid(text, for: Self.colorOption, expected: ColorMode.alternatives)
            }
            color = mode
        } else if let value = environment["NO_COLOR"], !value.isEmpty {
            color = .never
        }
        if environment["TERM"] == "dumb", color == .auto { color = .never }
        if output.isRecordFormat, rawResponse {
            throw UsageError("option '--raw-response' prints the JSON envelope; it cannot be used with '--output \(output.word)'")
        }
        if options.contains(Self.prettyOption), options.contains(Self.compactOption) {
            throw UsageError("options '--pretty' and '--compact' cannot be used together")
        }
        if options.contains(Self.prettyOption) {
            guard output == .json else {
                throw UsageError("option '--pretty' applies to '--output json' only, not '--output \(output.word)'")
            }
            layout = .pretty
        } else if options.contains(Self.compactOption) {
            layout = .compact
        }
    }

    /// A setting that is one of a choice's words, from its option or its variable; a bad value names whichever
    /// gave it.
    private static func choice<Value: Choice & Equatable>(
        _ option: OptionSpec, _ lookup: EnvironmentLookup
    ) throws(UsageError) -> Setting<Value>? {
        guard let text = lookup.text(option) else { return nil }
        guard let value = Value.parse(text.value) else {
            if text.origin != .commandLine {
                throw UsageError("invalid value '\(text.value)' for \(text.origin.describe(option)): expected \(Value.alternatives)")
            }
            throw ValueParsing.invalid(text.value, for: option, expected: Value.alternatives)
        }
        return Setting(value: value, origin: text.origin)
    }

    /// The environment variables kept in ``cognitoEnvironment``.
    static let cognitoVariables: Set<String> = [
        "GQLC_USER_POOL_ID", "GQLC_CLIENT_ID", "GQLC_CLIENT_SECRET", "GQLC_COGNITO_ENDPOINT", "XDG_CONFIG_HOME", "HOME",
    ]

    /// `localhost:20011/graphql` with the scheme it most likely lacks: http on the loopback (local servers), else
    /// https; nil when that is not a URL either.
    private static func withScheme(_ text: String) -> String? {
        guard !text.contains("://") else { return nil }
        let host = text.prefix { $0 != ":" && $0 != "/" }.lowercased()
        let local = host == "localhost" || host.hasPrefix("127.") || host == "0.0.0.0" || text.hasPrefix("[::1]")
        let guess = (local ? "http://" : "https://") + text
        guard let url = try? EndpointURL(parsing: guess), url.httpProblem == nil else { return nil }
        return guess
    }

    /// Checks that the endpoint is an absolute http(s) URL.
    private static func endpointURL(_ text: Setting<String>) throws(UsageError) -> EndpointURL {
        let value = EndpointURL.maskingUserInfo(text.value)
        let source = text.origin.describe(Self.endpointOption)
        let url: EndpointURL
        do {
            url = try EndpointURL(parsing: text.value)
        } catch {
            let reason = error == .noScheme || error == .noAuthority ? "" : "\(error); "
            var hint = ""
            if error == .noScheme || error == .noAuthority, let guess = withScheme(text.value) {
                hint = "; did you mean '\(EndpointURL.maskingUserInfo(guess))'?"
            }
            throw UsageError("invalid endpoint '\(value)' from \(source): \(reason)expected an http:// or https:// URL\(hint)")
        }
        guard url.httpProblem == nil else {
            throw UsageError("invalid endpoint '\(value)' from \(source): expected an http:// or https:// URL")
        }
        return url
    }
}

/// Reads an option's value from the command line, then from its environment variable (`Frontend` has already
/// dropped the empty ones), then from the selected named environment (the key is the flag's name with `_` for `-`).
private struct EnvironmentLookup {
    let options: ParsedOptions
    let environment: [String: String]
    let selected: SelectedEnvironment?

    /// A switch: given on the command line, or its variable set to `1`/`true`/`yes` (`0`/`false`/`no` mean off), or
    /// `true` in the named environment.
    func flag(_ option: OptionSpec) throws(UsageError) -> Setting<Bool>? {
        if options.contains(option) { return Setting(value: true, origin: .commandLine) }
        if let name = option.environmentVariable, let value = environment[name] {
            switch value.lowercased() {
            case "1", "true", "yes": return Setting(value: true, origin: .environment(name))
            case "0", "false", "no": return nil
            default: throw UsageError("invalid value '\(value)' for $\(name): expected 1, true, yes, 0, false or no")
            }
        }
        guard let (setting, origin) = named(option), EnvironmentConfig.boolean(setting.value) == true else { return nil }
        return Setting(value: true, origin: origin)
    }

    func text(_ option: OptionSpec) -> Setting<String>? {
        if let value = options.value(option) { return Setting(value: value, origin: .commandLine) }
        if let name = option.environmentVariable, let value = environment[name] {
            return Setting(value: value, origin: .environment(name))
        }
        guard let (setting, origin) = named(option) else { return nil }
        return Setting(value: setting.key.isPath ? selected?.resolvedPath(setting.value) ?? setting.value : setting.value, origin: origin)
    }

    /// The named environment's `header` lines, parsed.
    func selectedHeaders() throws(UsageError) -> [HTTPHeader] {
        guard let selected else { return [] }
        var headers: [HTTPHeader] = []
        for setting in selected.environment.values(.header) {
            do {
                headers.append(try HTTPHeader.parse(setting.value))
            } catch {
                throw UsageError("\(selected.path):\(setting.line): header of environment '\(selected.environment.name)': "
                    + "expected 'Name: value'")
            }
        }
        return headers
    }

    private func named(_ option: OptionSpec) -> (EnvironmentSetting, SettingOrigin)? {
        guard let selected, let key = SelectedEnvironment.key(for: option), let setting = selected.environment.setting(key) else {
            return nil
        }
        return (setting, selected.origin(setting))
    }
}

extension AuthMode: Choice {}

extension OutputFormat: Choice {}
