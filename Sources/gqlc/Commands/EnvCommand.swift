import GQLCore

/// `gqlc env list | show NAME | add NAME --schema FILE … | remove NAME`
enum EnvInvocation: Equatable, Sendable {
    case list
    case show(String)
    /// The settings as given on the command line, in key order (paths made absolute).
    case add(String, [EnvironmentSetting])
    case remove(String)

    enum Action: String, Choice {
        case list, show, add, remove
    }
}

/// Manages the named environments of the config file, which `--env NAME` selects.
enum EnvCommand: CommandDefinition {
    static let protectedOption = OptionSpec(
        long: "protected", help: "env add: writes to the environment ask first on a terminal and need --yes elsewhere.")
    static let readOnlyOption = OptionSpec(
        long: "read-only", help: "env add: writes to the environment are refused before anything is sent.")

    static let spec = CommandSpec(
        name: "env",
        abstract: "List, show, add or remove the named environments --env selects.",
        synopsis: [
            "list", "show NAME", "add NAME [--schema FILE] [--api-key KEY] … [--protected] [--read-only]",
            "add NAME [--endpoint URL] … [--realtime-endpoint URL]", "remove NAME",
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    The config file ($GQLC_CONFIG, else $XDG_CONFIG_HOME/gqlc/config, else ~/.config/gqlc/config) \
                    holds [env NAME] sections of 'key = value' lines. The keys are the global settings' flag \
                    names with '_' for '-': schema, endpoint, api_key, auth_token, auth_mode, token_use, iam, \
                    profile, region, cacert, realtime_endpoint and header (repeatable, 'Name: value'); and \
                    protected = true (writes ask first, naming the environment; --yes where nothing can ask) and \
                    read_only = true (writes are refused before anything is sent). Paths may start with ~/; \
                    a relative path is read from the config file's folder.
                    """),
                .paragraph(
                    """
                    --env NAME (or $GQLC_ENV) selects an environment for any command. Each setting is taken from \
                    the first place that has it: the flag, its GQLC_* variable, the environment, the schema \
                    file, the default. --verbose names the environment, the file and the line of each setting, \
                    and which ones a flag or variable overrode.
                    """),
                .paragraph(
                    """
                    A file that holds a secret (api_key, auth_token, or a header such as Authorization) must \
                    not be readable by group or others; gqlc refuses it otherwise (chmod 600). env add writes \
                    the file with mode 0600. env show masks secrets. env list prints the names, one per line, \
                    with (protected) or (read-only); --output json prints them as objects.
                    """),
            ])
        ],
        arguments: [
            ArgumentSpec(name: "ACTION", help: "\(EnvInvocation.Action.alternatives)."),
            ArgumentSpec(name: "NAME", help: "The environment: letters, digits, '-', '_' and '.'."),
        ],
        options: [SubscribeCommand.realtimeEndpoint, protectedOption, readOnlyOption],
        examples: [
            Example("Add a development environment", "gqlc env add dev --schema ~/src/shop/amplify_outputs.json"),
            Example("Add production, signed with an AWS profile, asking before writes",
                    "gqlc env add prod --schema prod/outputs.json --profile admin --protected"),
            Example("The environments, one per line", "gqlc env list"),
            Example("What it holds, secrets masked", "gqlc env show prod"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> EnvInvocation {
        let action = try EnvInvocation.Action.positional(arguments, at: 0, naming: "an action")
        if action == .list {
            try arguments.expectNoPositionals(after: 1)
        } else {
            try arguments.expectNoPositionals(after: 2)
        }
        let adding = arguments.options.contains(protectedOption) || arguments.options.contains(readOnlyOption)
            || arguments.options.value(SubscribeCommand.realtimeEndpoint) != nil
        if adding, action != .add {
            throw UsageError("options --protected, --read-only and --realtime-endpoint are for 'env add'")
        }
        if action == .list { return .list }
        let name = try arguments.required(spec.arguments[1], at: 1)
        if let problem = EnvironmentConfig.nameProblem(name) { throw UsageError(problem) }
        switch action {
        case .list: return .list
        case .show: return .show(name)
        case .remove: return .remove(name)
        case .add: return .add(name, try settings(arguments.options))
        }
    }

    /// The settings `env add` writes: the global settings given on the command line (not their variables), then the
    /// environment's own. Their values are checked as every run checks them (``GlobalOptions/resolve(options:environment:command:)``).
    static func settings(_ options: ParsedOptions) throws(UsageError) -> [EnvironmentSetting] {
        /// A switch given is `true`.
        func given(_ option: OptionSpec) -> String? {
            guard options.contains(option) else { return nil }
            if case .flag = option.kind { return "true" }
            return options.value(option)
        }
        var settings: [EnvironmentSetting] = []
        for option in GlobalOptions.all {
            guard let key = SelectedEnvironment.key(for: option), let value = given(option) else { continue }
            let stored = key.isPath ? EnvironmentConfig.storedPath(value, from: SchemaDiscovery.currentDirectory()) : value
            settings.append(EnvironmentSetting(key: key, value: stored, line: 0))
        }
        for value in options.values(GlobalOptions.headerOption) {
            _ = try GlobalOptions.header(value)
            settings.append(EnvironmentSetting(key: .header, value: value, line: 0))
        }
        for (option, key) in [(SubscribeCommand.realtimeEndpoint, EnvironmentKey.realtimeEndpoint), (protectedOption, .protected),
                              (readOnlyOption, .readOnly)] {
            if let value = given(option) { settings.append(EnvironmentSetting(key: key, value: value, line: 0)) }
        }
        guard !settings.isEmpty else {
            throw UsageError("env add needs the environment's settings, e.g. --schema FILE or --endpoint URL")
        }
        return settings
    }

    static func run(_ invocation: EnvInvocation, in context: RunContext) -> ExitCode {
        EnvRunner(session: context.session, diagnostics: context.diagnostics).run(invocation)
    }
}
