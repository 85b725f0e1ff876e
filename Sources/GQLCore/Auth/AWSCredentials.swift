/// An AWS access key pair, with a session token when the credentials are temporary.
///
/// Its `description` and mirror never show the secret key or the token.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The access key ID (`AKIA…`, or `ASIA…` for temporary credentials); not a secret.
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// The session token of temporary credentials (sent as `X-Amz-Security-Token`), or nil.
    public var sessionToken: String?

    /// Makes a value from its parts; an empty session token counts as none.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken?.isEmpty == true ? nil : sessionToken
    }

    /// `AWS credentials AKIA… (secret hidden)`.
    public var description: String {
        "AWS credentials \(accessKeyID) (secret hidden\(sessionToken == nil ? "" : ", with a session token"))"
    }

    /// A mirror without the secrets, so that `dump` and debuggers do not print them.
    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "hasSessionToken": sessionToken != nil])
    }
}

/// Finds AWS credentials the way the AWS CLI does, in this order:
///
/// 1. with an explicit profile (`--profile`): that profile of the shared credentials file;
/// 2. `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, with `AWS_SESSION_TOKEN` when set;
/// 3. the profile `AWS_PROFILE` (or `default`) of the shared credentials file,
///    `AWS_SHARED_CREDENTIALS_FILE` or `~/.aws/credentials`.
///
/// ```swift
/// let credentials = try AWSCredentialsLookup(environment: ProcessInfo.processInfo.environment).resolve()
/// ```
public struct AWSCredentialsLookup: Sendable {
    /// The process environment (only `AWS_*` and `HOME` are read).
    public var environment: [String: String]
    /// The profile given on the command line, which wins over the environment's keys.
    public var profile: String?

    /// Makes a lookup over `environment`, with an optional explicit profile.
    public init(environment: [String: String], profile: String? = nil) {
        self.environment = environment
        self.profile = profile
    }

    /// The credentials file's path: `$AWS_SHARED_CREDENTIALS_FILE`, else `$HOME/.aws/credentials`.
    public var credentialsFilePath: String {
        if let path = value("AWS_SHARED_CREDENTIALS_FILE") { return Self.expandingTilde(path, home: home) }
        return home + "/.aws/credentials"
    }

    /// The credentials, or an error naming every place looked.
    public func resolve() throws(AWSAuthError) -> AWSCredentials {
        if let profile { return try fromFile(profile: profile, looked: []) }
        let keyID = value("AWS_ACCESS_KEY_ID")
        let secret = value("AWS_SECRET_ACCESS_KEY")
        switch (keyID, secret) {
        case (let keyID?, let secret?):
            return AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
        case (.some, nil):
            throw .incompleteEnvironment(present: "AWS_ACCESS_KEY_ID", missing: "AWS_SECRET_ACCESS_KEY")
        case (nil, .some):
            throw .incompleteEnvironment(present: "AWS_SECRET_ACCESS_KEY", missing: "AWS_ACCESS_KEY_ID")
        case (nil, nil):
            let looked = "$AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY (not set)"
            return try fromFile(profile: value("AWS_PROFILE") ?? "default", looked: [looked])
        }
    }

    private func fromFile(profile: String, looked: [String]) throws(AWSAuthError) -> AWSCredentials {
        let path = credentialsFilePath
        let text: String
        do {
            text = try FileReader.text(atPath: path)
        } catch .notFound {
            throw .missingCredentials(looked: looked + ["profile '\(profile)' in \(path) (no such file)"])
        } catch {
            throw .unreadableCredentialsFile(error)
        }
        let file = try SharedCredentialsFile.parse(text, path: path)
        guard let settings = file.profiles[profile] else {
            if looked.isEmpty { throw .profileNotFound(profile: profile, path: path, available: file.profileNames) }
            throw .missingCredentials(looked: looked + ["profile '\(profile)' in \(path) (no such profile)"])
        }
        guard let keyID = settings["aws_access_key_id"], !keyID.isEmpty else {
            throw .incompleteProfile(profile: profile, path: path, missing: "aws_access_key_id")
        }
        guard let secret = settings["aws_secret_access_key"], !secret.isEmpty else {
            throw .incompleteProfile(profile: profile, path: path, missing: "aws_secret_access_key")
        }
        return AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret,
            sessionToken: settings["aws_session_token"] ?? settings["aws_security_token"])
    }

    private var home: String {
        value("HOME") ?? ProcessEnvironment.passwordHomeDirectory() ?? "~"
    }

    /// A set, non-empty environment variable.
    private func value(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    static func expandingTilde(_ path: String, home: String) -> String {
        path == "~" || path.hasPrefix("~/") ? home + path.dropFirst() : path
    }
}

/// The shared credentials file (`~/.aws/credentials`): INI sections `[name]` of `key = value` settings.
///
/// Lines starting with `#` or `;` are comments. Messages about a bad line give its number, never its text
/// (it may hold a secret).
public struct SharedCredentialsFile: Sendable, Equatable {
    /// Each profile's settings, keys lowercased.
    public var profiles: [String: [String: String]]
    /// The profile names in file order.
    public var profileNames: [String]

    /// Parses the file's text; `path` is for messages.
    public static func parse(_ text: String, path: String) throws(AWSAuthError) -> SharedCredentialsFile {
        var file = SharedCredentialsFile(profiles: [:], profileNames: [])
        var current: String?
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    throw .malformedCredentialsFile(path: path, line: lineNumber, reason: "a section header needs a closing ']'")
                }
                let name = line.dropFirst().dropLast().trimmingSpaces
                guard !name.isEmpty else {
                    throw .malformedCredentialsFile(path: path, line: lineNumber, reason: "the profile name between '[' and ']' is empty")
                }
                if file.profiles[name] == nil {
                    file.profiles[name] = [:]
                    file.profileNames.append(name)
                }
                current = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw .malformedCredentialsFile(path: path, line: lineNumber, reason: "expected 'name = value', a '[profile]' header or a comment")
            }
            let key = line[..<equals].trimmingSpaces.lowercased()
            guard !key.isEmpty else {
                throw .malformedCredentialsFile(path: path, line: lineNumber, reason: "the setting name before '=' is empty")
            }
            guard let profile = current else {
                throw .malformedCredentialsFile(path: path, line: lineNumber, reason: "a setting before the first '[profile]' header")
            }
            file.profiles[profile, default: [:]][key] = line[line.index(after: equals)...].trimmingSpaces
        }
        return file
    }
}
