/// The AWS CLI's two shared files, read as botocore reads them: the config file (`AWS_CONFIG_FILE` or
/// `~/.aws/config`, sections `[default]`, `[profile NAME]` and `[sso-session NAME]`) and the credentials
/// file (`AWS_SHARED_CREDENTIALS_FILE` or `~/.aws/credentials`, sections `[NAME]`).
///
/// A missing file counts as empty. A profile's settings are the config file's, overridden by the
/// credentials file's, as in botocore's merged `profiles`.
public struct AWSProfileFiles: Sendable, Equatable {
    /// The config file's path.
    public var configPath: String
    /// The credentials file's path.
    public var credentialsPath: String
    /// Profiles of the config file, by name (`[profile dev]` is `dev`).
    public var config: [String: [String: String]] = [:]
    /// Profiles of the credentials file, by name.
    public var credentials: [String: [String: String]] = [:]
    /// `[sso-session NAME]` sections of the config file.
    public var ssoSessions: [String: [String: String]] = [:]
    /// `[services NAME]` sections of the config file; nested settings as `sts.endpoint_url`.
    public var services: [String: [String: String]] = [:]
    /// Every profile name, config file first, in file order.
    public var profileNames: [String] = []

    /// Reads both files from the places `environment` names. A file named by its variable must be readable
    /// when it exists; one in its default place that this user may not read counts as absent, as in botocore.
    public static func load(environment: [String: String]) throws(AWSAuthError) -> AWSProfileFiles {
        let home = AWSEnvironment.home(environment)
        let configSetting = AWSEnvironment.value("AWS_CONFIG_FILE", environment)
        let credentialsSetting = AWSEnvironment.value("AWS_SHARED_CREDENTIALS_FILE", environment)
        let configPath = configSetting.map { AWSEnvironment.expandingTilde($0, home: home) } ?? home + "/.aws/config"
        let credentialsPath = credentialsSetting.map { AWSEnvironment.expandingTilde($0, home: home) } ?? home + "/.aws/credentials"
        var files = AWSProfileFiles(configPath: configPath, credentialsPath: credentialsPath)
        if let text = try readIfPresent(configPath, named: configSetting != nil) {
            let parsed = try SharedCredentialsFile.parse(text, path: configPath)
            for section in parsed.profileNames {
                let settings = parsed.profiles[section] ?? [:]
                if section == "default" || section.hasPrefix("profile ") {
                    let name = section == "default" ? section : String(section.dropFirst("profile ".count)).trimmingSpaces
                    // `[profile default]` wins over `[default]`, as in botocore.
                    if files.config[name] == nil || section != "default" { files.config[name] = settings }
                    if !files.profileNames.contains(name) { files.profileNames.append(name) }
                } else if section.hasPrefix("sso-session ") {
                    files.ssoSessions[String(section.dropFirst("sso-session ".count)).trimmingSpaces] = settings
                } else if section.hasPrefix("services ") {
                    files.services[String(section.dropFirst("services ".count)).trimmingSpaces] = settings
                }
            }
        }
        if let text = try readIfPresent(credentialsPath, named: credentialsSetting != nil) {
            let parsed = try SharedCredentialsFile.parse(text, path: credentialsPath)
            files.credentials = parsed.profiles
            for name in parsed.profileNames where !files.profileNames.contains(name) { files.profileNames.append(name) }
        }
        return files
    }

    /// The merged settings of a profile, or nil when neither file has it.
    public func profile(_ name: String) -> [String: String]? {
        let fromConfig = config[name]
        let fromCredentials = credentials[name]
        if fromConfig == nil && fromCredentials == nil { return nil }
        return (fromConfig ?? [:]).merging(fromCredentials ?? [:]) { _, new in new }
    }

    /// "~/.aws/config and ~/.aws/credentials", for messages.
    public var bothPaths: String { "\(configPath) and \(credentialsPath)" }

    private static func readIfPresent(_ path: String, named: Bool) throws(AWSAuthError) -> String? {
        do {
            return try FileReader.text(atPath: path)
        } catch .notFound {
            return nil
        } catch .permissionDenied where !named {
            return nil
        } catch {
            throw .unreadableCredentialsFile(error)
        }
    }
}

/// Reading `AWS_*` settings: set and non-empty, and the home directory.
enum AWSEnvironment {
    /// A set, non-empty variable.
    static func value(_ name: String, _ environment: [String: String]) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// `$HOME`, else the password database's, else `~`.
    static func home(_ environment: [String: String]) -> String {
        value("HOME", environment) ?? ProcessEnvironment.passwordHomeDirectory() ?? "~"
    }

    /// `~` and `~/…` under `home`.
    static func expandingTilde(_ path: String, home: String) -> String {
        path == "~" || path.hasPrefix("~/") ? home + path.dropFirst() : path
    }

    /// `true`, in any case, as botocore reads boolean variables.
    static func isTrue(_ name: String, _ environment: [String: String]) -> Bool {
        value(name, environment)?.lowercased() == "true"
    }
}
