import GQLCore

/// The named environment a run uses: chosen by `--env NAME`, else `$GQLC_ENV`, from the config file.
///
/// This is the one place an environment is chosen and read, for every command (``GlobalOptions/resolve(options:environment:command:)``);
/// its settings then rank below flags and `GQLC_*` variables and above the schema file and defaults.
struct SelectedEnvironment: Equatable, Sendable {
    let environment: NamedEnvironment
    let config: EnvironmentConfig
    /// The home folder, for `~/` in paths.
    let home: String?
    /// `--env` or `$GQLC_ENV`.
    let selectedBy: SettingOrigin
    /// For `--verbose`: each of the environment's settings, and what overrides it.
    var provenance: [String] = []

    var path: String { config.path }
    var name: String { environment.name }

    /// Where a setting of this environment came from.
    func origin(_ setting: EnvironmentSetting) -> SettingOrigin {
        .named(environment: environment.name, path: config.path, line: setting.line)
    }

    /// A path value resolved as the config file documents (`~/`, or relative to the file's folder).
    func resolvedPath(_ value: String) -> String { config.resolvedPath(value, home: home) }

    /// The environment key that sets `option` (`api_key` for `--api-key`), when it is one.
    static func key(for option: OptionSpec) -> EnvironmentKey? {
        let key = EnvironmentKey(rawValue: String(option.long.map { $0 == "-" ? "_" : $0 }))
        return key == .header || key == .protected || key == .readOnly ? nil : key
    }
}

extension GlobalOptions {
    /// The settings of a run: reads the named environment when one is selected, then decodes the options. `env`, which
    /// manages the file, selects none.
    static func resolve(options: ParsedOptions, environment: [String: String], command: String? = nil) throws(UsageError) -> GlobalOptions {
        let selected = command == EnvCommand.spec.name ? nil : try selectEnvironment(options: options, environment: environment)
        return try GlobalOptions(options: options, environment: environment, selected: selected)
    }

    /// The environment `--env` or `GQLC_ENV` names, read from the config file; nil when none is named.
    static func selectEnvironment(options: ParsedOptions, environment: [String: String]) throws(UsageError) -> SelectedEnvironment? {
        let origin: SettingOrigin
        let name: String
        if let given = options.value(envOption) {
            (name, origin) = (given, .commandLine)
        } else if let variable = envOption.environmentVariable, let given = environment[variable] {
            (name, origin) = (given, .environment(variable))
        } else {
            return nil
        }
        guard let path = EnvironmentConfig.path(environment: environment) else {
            throw UsageError("\(envOption.flagName) \(name): \(EnvironmentError.noPath)")
        }
        let config: EnvironmentConfig
        let named: NamedEnvironment
        do {
            config = try EnvironmentConfig.load(path: path)
            named = try config.environment(named: name)
        } catch {
            let prefix = origin == .commandLine ? "" : "\(origin.describe(envOption)): "
            throw UsageError(prefix + commandLineMessage(error))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ProcessEnvironment.passwordHomeDirectory()
        var selected = SelectedEnvironment(environment: named, config: config, home: home, selectedBy: origin)
        selected.provenance = provenance(of: named, path: path, options: options, environment: environment)
        return selected
    }

    /// The options that say where and how to connect: for a command that talks to two environments (copy), given by
    /// flag or variable they would apply to both sides.
    static let connectionOptions = [schemaOption, endpointOption, apiKeyOption, authTokenOption, authModeOption, iamOption,
                                    profileOption, regionOption, envOption]

    /// The same settings with the environment `name` selected instead, for a command that talks to two environments;
    /// a connection setting given by flag or `GQLC_*` variable is refused, since it would apply to both sides.
    func selecting(environment name: String, as role: String) throws(UsageError) -> GlobalOptions {
        for option in Self.connectionOptions where option != Self.envOption {
            if parsedOptions.contains(option) {
                throw UsageError("'\(option.flagName)' would apply to both sides; \(role) takes each side's settings from its environment")
            }
            if let variable = option.environmentVariable, processEnvironment[variable] != nil {
                throw UsageError("$\(variable) would apply to both sides; unset it: \(role) takes each side's settings from its environment")
            }
        }
        var options = parsedOptions
        options.record(Self.envOption, value: name)
        var environment = processEnvironment
        environment[Self.envOption.environmentVariable ?? ""] = nil
        let selected = try Self.selectEnvironment(options: options, environment: environment)
        return try GlobalOptions(options: options, environment: environment, selected: selected)
    }

    /// One line per setting: `schema from line 2`, `endpoint (line 3) overridden by $GQLC_ENDPOINT`; secrets not shown.
    private static func provenance(
        of named: NamedEnvironment, path: String, options: ParsedOptions, environment: [String: String]
    ) -> [String] {
        named.settings.map { setting in
            let place = "\(setting.key.rawValue) (\(path):\(setting.line))"
            guard let option = all.first(where: { SelectedEnvironment.key(for: $0) == setting.key }) else { return place }
            if options.value(option) != nil || options.contains(option) { return "\(place) overridden by \(option.flagName)" }
            if let variable = option.environmentVariable, environment[variable] != nil {
                return "\(place) overridden by $\(variable)"
            }
            return place
        }
    }
}
