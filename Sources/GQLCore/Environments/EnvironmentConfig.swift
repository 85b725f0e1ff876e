#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One setting a named environment may hold: the global settings that have a flag, plus `protected` and `read_only`.
public enum EnvironmentKey: String, Sendable, CaseIterable, Hashable {
    case schema, endpoint
    case apiKey = "api_key"
    case authToken = "auth_token"
    case authMode = "auth_mode"
    case tokenUse = "token_use"
    case iam, profile, region, cacert
    case realtimeEndpoint = "realtime_endpoint"
    /// `Name: value`; may be given more than once.
    case header
    /// Writes ask first on a terminal, and need an explicit yes elsewhere.
    case protected
    /// Writes are refused before anything is sent.
    case readOnly = "read_only"

    /// Whether the value is a secret (redacted when shown; the file must then be private to its owner). A header is
    /// one when its name is sensitive (see ``EnvironmentSetting/isSecret``).
    public var isSecret: Bool { self == .apiKey || self == .authToken }
    /// Whether the value is `true`/`false`.
    public var isBoolean: Bool { self == .iam || self == .protected || self == .readOnly }
    /// Whether the value is a path, read relative to the config file's folder (`~/` is the home folder).
    public var isPath: Bool { self == .schema || self == .cacert }
    /// Whether the key may appear more than once in a section.
    public var isRepeatable: Bool { self == .header }
}

/// One `key = value` line of an environment, with where it stands.
public struct EnvironmentSetting: Sendable, Equatable {
    /// Which setting it is.
    public var key: EnvironmentKey
    /// The value as written (paths not yet resolved).
    public var value: String
    /// The 1-based line number.
    public var line: Int

    /// A setting of `key` to `value`, written on `line`.
    public init(key: EnvironmentKey, value: String, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }

    /// Whether the value is a secret: an API key, a token, or a header whose name is sensitive (`Authorization`, `x-api-key`).
    public var isSecret: Bool {
        if key.isSecret { return true }
        guard key == .header, let colon = value.firstIndex(of: ":") else { return false }
        return HeaderRedaction.isSensitive(value[..<colon].trimmingSpaces)
    }

    /// The value as it may be shown: secrets masked (`da2-…████`, `Authorization: ████`).
    public var shownValue: String {
        guard isSecret else { return value }
        if key == .header, let colon = value.firstIndex(of: ":") {
            return "\(value[..<colon].trimmingSpaces): \(HeaderRedaction.redactValue(value[value.index(after: colon)...].trimmingSpaces))"
        }
        return HeaderRedaction.redactValue(value)
    }
}

/// One `[env NAME]` section of the config file.
public struct NamedEnvironment: Sendable, Equatable {
    /// The environment's name, as `[env NAME]` gives it.
    public var name: String
    /// The line of the section header.
    public var line: Int
    /// The settings in file order.
    public var settings: [EnvironmentSetting]

    /// The section `[env name]` that starts on `line`, with its settings.
    public init(name: String, line: Int, settings: [EnvironmentSetting]) {
        self.name = name
        self.line = line
        self.settings = settings
    }

    /// The last value of `key` (a repeatable key's values come from ``values(_:)``).
    public func setting(_ key: EnvironmentKey) -> EnvironmentSetting? { settings.last { $0.key == key } }

    /// Every value of `key`, in file order.
    public func values(_ key: EnvironmentKey) -> [EnvironmentSetting] { settings.filter { $0.key == key } }

    /// Whether writes ask first (`protected = true`).
    public var isProtected: Bool { setting(.protected).map { EnvironmentConfig.boolean($0.value) == true } ?? false }
    /// Whether writes are refused (`read_only = true`).
    public var isReadOnly: Bool { setting(.readOnly).map { EnvironmentConfig.boolean($0.value) == true } ?? false }
    /// Whether any value is a secret.
    public var holdsSecret: Bool { settings.contains(where: \.isSecret) }

    /// `dev (protected)`: the name, and whether writes are refused or ask first.
    public var listed: String { name + (isReadOnly ? " (read-only)" : isProtected ? " (protected)" : "") }

    /// The section as the file at `path` holds it, with where, secrets masked: `# FILE:LINE`, `[env NAME]`, `key = value`.
    public func shown(path: String) -> [String] {
        ["# \(path):\(line)", "[env \(name)]"] + settings.map { "\($0.key.rawValue) = \($0.shownValue)" }
    }

    /// `{"name", "protected", "readOnly"}`.
    public var json: JSONValue { ["name": .string(name), "protected": .bool(isProtected), "readOnly": .bool(isReadOnly)] }
}

/// gqlc's config file: `$GQLC_CONFIG`, else `$XDG_CONFIG_HOME/gqlc/config`, else `~/.config/gqlc/config`. INI sections
/// `[env NAME]` of `key = value` settings; `#` and `;` start comment lines. A file that holds a secret (an API key,
/// token or header) must not be readable by group or others, as the token file.
public struct EnvironmentConfig: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// Whether the file exists.
    public var exists: Bool
    /// The environments in file order.
    public var environments: [NamedEnvironment]
    /// The file's lines as read, for editing.
    public var lines: [String]

    /// The file at `path`, with what was read from it (nothing by default).
    public init(path: String, exists: Bool = false, environments: [NamedEnvironment] = [], lines: [String] = []) {
        self.path = path
        self.exists = exists
        self.environments = environments
        self.lines = lines
    }

    /// The variable that names another config file.
    public static let pathVariable = "GQLC_CONFIG"
    /// The variable that selects an environment when none is given on the command line.
    public static let selectionVariable = "GQLC_ENV"

    /// The config file's path for this process environment, or nil without `GQLC_CONFIG`, `XDG_CONFIG_HOME` or a home.
    public static func path(environment: [String: String]) -> String? {
        if let named = environment[pathVariable], !named.isEmpty { return named }
        return TokenStore.standard(environment: environment).map { $0.directory + "/config" }
    }

    /// The environment named `name`, or an error that suggests the closest name and lists them all.
    public func environment(named name: String) throws(EnvironmentError) -> NamedEnvironment {
        if let found = environments.first(where: { $0.name == name }) { return found }
        throw .unknown(name: name, path: path, known: environments.map(\.name), fileExists: exists)
    }

    /// The environment names, in file order.
    public var names: [String] { environments.map(\.name) }

    // MARK: Reading

    /// Reads and checks the file at `path`; a missing file is an empty config.
    public static func load(path: String) throws(EnvironmentError) -> EnvironmentConfig {
        let text: String
        do {
            text = try FileReader.text(atPath: path)
        } catch .notFound {
            return EnvironmentConfig(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        var config = try parse(text, path: path)
        config.exists = true
        if let secret = config.environments.first(where: \.holdsSecret) {
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
                throw .readableByOthers(path: path, mode: String(status.st_mode & 0o777, radix: 8), environment: secret.name)
            }
        }
        return config
    }

    /// Parses the file's text; `path` is for messages. Bad lines are named by number, never quoted (they may hold a secret).
    public static func parse(_ text: String, path: String) throws(EnvironmentError) -> EnvironmentConfig {
        var config = EnvironmentConfig(path: path, exists: true)
        config.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if config.lines.last == "" { config.lines.removeLast() }
        var current: Int?
        for (index, rawLine) in config.lines.enumerated() {
            let number = index + 1
            let line = rawLine.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            func bad(_ reason: String) -> EnvironmentError { .malformed(path: path, line: number, reason: reason) }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw bad("a section header needs a closing ']'") }
                let inside = line.dropFirst().dropLast().trimmingSpaces
                let words = inside.split(separator: " ", omittingEmptySubsequences: true)
                guard words.count == 2, words[0] == "env" else {
                    throw bad("expected a section header '[env NAME]'")
                }
                let name = String(words[1])
                if let problem = nameProblem(name) { throw bad(problem) }
                if let earlier = config.environments.first(where: { $0.name == name }) {
                    throw bad("environment '\(name)' is already defined on line \(earlier.line)")
                }
                config.environments.append(NamedEnvironment(name: name, line: number, settings: []))
                current = config.environments.count - 1
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw bad("expected 'key = value', an '[env NAME]' header or a comment")
            }
            let keyText = line[..<equals].trimmingSpaces.lowercased()
            guard let key = EnvironmentKey(rawValue: keyText) else {
                let known = EnvironmentKey.allCases.map(\.rawValue)
                throw bad("unknown setting '\(keyText)'\(Suggestions.didYouMean(keyText, in: known)); settings are \(known.joined(separator: ", "))")
            }
            guard let section = current else { throw bad("a setting before the first '[env NAME]' header") }
            let value = line[line.index(after: equals)...].trimmingSpaces
            guard !value.isEmpty else { throw bad("\(key.rawValue) has no value") }
            if key.isBoolean, boolean(value) == nil {
                throw bad("\(key.rawValue) is '\(value)'; expected true or false")
            }
            if !key.isRepeatable, let earlier = config.environments[section].setting(key) {
                throw bad("\(key.rawValue) is already set on line \(earlier.line)")
            }
            config.environments[section].settings.append(EnvironmentSetting(key: key, value: value, line: number))
        }
        return config
    }

    /// Why `name` cannot name an environment, or nil when it can.
    public static func nameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "the environment name is empty" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || scalar == "-" || scalar == "_" || scalar == "."
        }
        return allowed ? nil : "the environment name '\(name)' may hold only letters, digits, '-', '_' and '.'"
    }

    /// `true`/`yes`/`on`/`1` or `false`/`no`/`off`/`0`, in any case; nil otherwise.
    public static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }

    /// A path value as gqlc reads it: `~/…` under `home`, a relative path under the config file's folder.
    public func resolvedPath(_ value: String, home: String?) -> String {
        if value == "~" || value.hasPrefix("~/"), let home { return home + value.dropFirst() }
        if value.hasPrefix("/") { return value }
        guard let slash = path.lastIndex(of: "/") else { return value }
        return path[..<slash] + "/" + value
    }
}
