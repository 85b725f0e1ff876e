/// The named environment a run uses, read from the config file, and how it was chosen.
///
/// Its settings rank below the values a front end is given and the process's variables, and above the schema file
/// and the defaults (see ``SettingSources``).
public struct SelectedEnvironment: Equatable, Sendable {
    /// The environment's section of the config file.
    public let environment: NamedEnvironment
    /// The config file it was read from.
    public let config: EnvironmentConfig
    /// The home folder, for `~/` in paths.
    public let home: String?
    /// Where its name was given (a front end's value, or ``EnvironmentConfig/selectionVariable``).
    public let selectedBy: SettingOrigin
    /// For a verbose run: each of the environment's settings, and what overrides it (see ``SettingSources/provenance(_:)``).
    public var provenance: [SettingProvenance] = []

    /// An environment read from `config`.
    public init(environment: NamedEnvironment, config: EnvironmentConfig, home: String?, selectedBy: SettingOrigin) {
        self.environment = environment
        self.config = config
        self.home = home
        self.selectedBy = selectedBy
    }

    /// The config file's path.
    public var path: String { config.path }
    /// The environment's name.
    public var name: String { environment.name }

    /// Where a setting of this environment came from.
    public func origin(_ setting: EnvironmentSetting) -> SettingOrigin {
        .named(environment: environment.name, path: config.path, line: setting.line)
    }

    /// A path value resolved as the config file documents (`~/`, or relative to the file's folder).
    public func resolvedPath(_ value: String) -> String { config.resolvedPath(value, home: home) }

    /// The environment `name` of the config file this process environment points at (``EnvironmentConfig/path(environment:)``),
    /// with the home folder from `HOME`, else the password database.
    public static func load(_ name: Setting<String>, environment: [String: String]) throws(EnvironmentError) -> SelectedEnvironment {
        guard let path = EnvironmentConfig.path(environment: environment) else { throw .noPath }
        let config = try EnvironmentConfig.load(path: path)
        let named = try config.environment(named: name.value)
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ProcessEnvironment.passwordHomeDirectory()
        return SelectedEnvironment(environment: named, config: config, home: home, selectedBy: name.origin)
    }
}

/// One setting of the selected environment, and what overrode it (nil when it is used).
public struct SettingProvenance: Equatable, Sendable {
    /// The setting, with its line.
    public let setting: EnvironmentSetting
    /// The higher-ranked place that gave the same setting, if any: a front end's value or a variable.
    public let overriddenBy: SettingOrigin?
}

/// Where one setting can be given besides the named environment: the value a front end was given (its command line),
/// the process variable that sets it, and its key in the config file.
public struct SettingSource: Sendable, Equatable {
    /// The value as given, or nil.
    public var given: String?
    /// The variable that sets it (`GQLC_ENDPOINT`), if one does.
    public var variable: String?
    /// The config file's key for it, if an environment may set it.
    public var key: EnvironmentKey?

    /// A setting given as `given`, else by `variable`, else by the environment's `key`.
    public init(given: String?, variable: String?, key: EnvironmentKey?) {
        self.given = given
        self.variable = variable
        self.key = key
    }
}

/// Why a setting's value from a variable cannot be used.
public enum SettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A switch's variable holds something other than the words of yes and no.
    case invalidSwitch(variable: String, value: String)

    public var description: String {
        switch self {
        case .invalidSwitch(let variable, let value):
            "invalid value '\(value)' for $\(variable): expected 1, true, yes, 0, false or no"
        }
    }
}

/// The places settings come from, in their order of precedence: what the front end was given (origin
/// `.commandLine`), then the process's variables, then the selected named environment; a setting none of them gives
/// is left to the schema file or the default.
///
/// gqlc fills it from its flags and `GQLC_*` variables; a Swift program can pass its own values and variables.
public struct SettingSources: Sendable {
    /// The process environment (variables set but empty already dropped where they count as unset).
    public let variables: [String: String]
    /// The named environment, if one was selected.
    public let selected: SelectedEnvironment?

    /// Sources over `variables` and `selected`.
    public init(variables: [String: String], selected: SelectedEnvironment?) {
        self.variables = variables
        self.selected = selected
    }

    /// The first of the given value, the variable's and the named environment's (a path resolved as the config file
    /// documents), with where it came from; nil when none has one.
    public func text(_ source: SettingSource) -> Setting<String>? {
        if let value = source.given { return Setting(value: value, origin: .commandLine) }
        if let name = source.variable, let value = variables[name] { return Setting(value: value, origin: .environment(name)) }
        guard let selected, let (setting, origin) = named(source.key) else { return nil }
        return Setting(value: setting.key.isPath ? selected.resolvedPath(setting.value) : setting.value, origin: origin)
    }

    /// A switch: on when given, or its variable is `1`/`true`/`yes` (`0`/`false`/`no` leave it off, anything else is
    /// an error), or the named environment sets it true; nil when it is off.
    public func flag(given: Bool, _ source: SettingSource) throws(SettingError) -> Setting<Bool>? {
        if given { return Setting(value: true, origin: .commandLine) }
        if let name = source.variable, let value = variables[name] {
            switch value.lowercased() {
            case "1", "true", "yes": return Setting(value: true, origin: .environment(name))
            case "0", "false", "no": return nil
            default: throw .invalidSwitch(variable: name, value: value)
            }
        }
        guard let (setting, origin) = named(source.key), EnvironmentConfig.boolean(setting.value) == true else { return nil }
        return Setting(value: true, origin: origin)
    }

    /// The named environment's `header` lines, parsed, in file order.
    public func namedHeaders() throws(EnvironmentError) -> [HTTPHeader] {
        guard let selected else { return [] }
        var headers: [HTTPHeader] = []
        for setting in selected.environment.values(.header) {
            guard let header = try? HTTPHeader.parse(setting.value) else {
                throw .invalidValue(
                    path: selected.path, line: setting.line, environment: selected.name, key: setting.key.rawValue,
                    reason: "expected 'Name: value'")
            }
            headers.append(header)
        }
        return headers
    }

    /// Each setting of the named environment, with the given value or variable that overrides it (`sources` says
    /// where each key may be given); empty without one.
    public func provenance(_ sources: (EnvironmentKey) -> SettingSource?) -> [SettingProvenance] {
        guard let selected else { return [] }
        return selected.environment.settings.map { setting in
            guard let source = sources(setting.key) else { return SettingProvenance(setting: setting, overriddenBy: nil) }
            let over: SettingOrigin? = if source.given != nil {
                .commandLine
            } else if let name = source.variable, variables[name] != nil {
                .environment(name)
            } else {
                nil
            }
            return SettingProvenance(setting: setting, overriddenBy: over)
        }
    }

    private func named(_ key: EnvironmentKey?) -> (EnvironmentSetting, SettingOrigin)? {
        guard let selected, let key, let setting = selected.environment.setting(key) else { return nil }
        return (setting, selected.origin(setting))
    }
}

/// What a write needs in a named environment before anything is sent (its `readOnly` and `protected` keys).
public enum EnvironmentWriteGuard: Sendable, Equatable {
    /// Nothing: the environment is neither read-only nor protected.
    case open
    /// Refused, for the reason given: the environment is read-only.
    case refused(String)
    /// A yes to `question` first; `refusal` begins the line said where nothing can ask.
    case confirm(question: String, refusal: String)
}

extension SelectedEnvironment {
    /// What writing (`what`, as in "refusing to `what`") needs here: read-only refuses it, wherever the key is set;
    /// protected asks first.
    public func writeGuard(_ what: String) -> EnvironmentWriteGuard {
        if environment.isReadOnly {
            let line = environment.setting(.readOnly)?.line ?? environment.line
            return .refused("environment '\(name)' is read-only (\(path):\(line)); refusing to \(what): nothing was sent")
        }
        guard environment.isProtected else { return .open }
        return .confirm(question: "\(what) in the protected environment '\(name)'?", refusal: "environment '\(name)' is protected")
    }
}
