import GQLCore

extension SelectedEnvironment {
    /// The environment key that sets `option` (`api_key` for `--api-key`), when it is one.
    static func key(for option: OptionSpec) -> EnvironmentKey? {
        let key = EnvironmentKey(rawValue: String(option.long.map { $0 == "-" ? "_" : $0 }))
        return key == .header || key == .protected || key == .readOnly ? nil : key
    }

    /// For `--verbose`, one line per setting: `schema (~/.config/gqlc/config:2)`, `endpoint (…:3) overridden by
    /// $GQLC_ENDPOINT`; values are not shown.
    var provenanceLines: [String] {
        provenance.map { item in
            let place = "\(item.setting.key.rawValue) (\(path):\(item.setting.line))"
            guard let origin = item.overriddenBy else { return place }
            let option = GlobalOptions.all.first { Self.key(for: $0) == item.setting.key }
            return "\(place) overridden by " + (origin == .commandLine ? option?.flagName ?? "" : origin.describe(naming: ""))
        }
    }
}

extension GlobalOptions {
    /// The settings of a run: reads the named environment when one is selected, then decodes the options. `env`, which
    /// manages the file, selects none.
    static func resolve(options: ParsedOptions, environment: [String: String], command: String? = nil) throws(UsageError) -> GlobalOptions {
        let selected = command == EnvCommand.spec.name ? nil : try selectEnvironment(options: options, environment: environment)
        return try GlobalOptions(options: options, environment: environment, selected: selected)
    }

    /// The environment `--env` or `GQLC_ENV` names, read from the config file (``SelectedEnvironment/load(_:environment:)``),
    /// with the provenance of its settings; nil when none is named.
    static func selectEnvironment(options: ParsedOptions, environment: [String: String]) throws(UsageError) -> SelectedEnvironment? {
        let lookup = OptionSources(options: options, sources: SettingSources(variables: environment, selected: nil))
        guard let name = lookup.text(envOption) else { return nil }
        var selected: SelectedEnvironment
        do throws(EnvironmentError) {
            selected = try SelectedEnvironment.load(name, environment: environment)
        } catch .noPath {
            throw UsageError("\(envOption.flagName) \(name.value): \(EnvironmentError.noPath)")
        } catch {
            let prefix = name.origin == .commandLine ? "" : "\(name.origin.describe(envOption)): "
            throw UsageError(prefix + commandLineMessage(error))
        }
        let sources = SettingSources(variables: environment, selected: selected)
        selected.provenance = sources.provenance { key in all.first { SelectedEnvironment.key(for: $0) == key }.map(lookup.source) }
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
}
