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

/// An AWS shared file (`~/.aws/credentials` or `~/.aws/config`): INI sections `[name]` of `key = value` settings.
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
        var parent: String?  // a setting with no value, whose indented lines below are its nested settings
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            let indented = rawLine.first == " " || rawLine.first == "\t"
            if !indented { parent = nil }
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
            let value = line[line.index(after: equals)...].trimmingSpaces
            if let parent, indented {
                file.profiles[profile, default: [:]]["\(parent).\(key)"] = value  // `s3 =` then `  addressing_style = path`
                continue
            }
            if value.isEmpty { parent = key }
            file.profiles[profile, default: [:]][key] = value
        }
        return file
    }
}
