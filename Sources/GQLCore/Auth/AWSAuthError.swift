/// Why IAM (SigV4) auth could not be set up: no region, no or broken credentials.
///
/// Messages name where gqlc looked and how to fix it; they never contain a secret key, a session token
/// or the text of a credentials-file line.
public enum AWSAuthError: Error, Sendable, Equatable, ParameterizedMessage {
    /// No region anywhere; each string names a place looked and what was there (besides the region given).
    case missingRegion(looked: [String])
    /// A region that is not of the form `eu-west-1`; the source says where it came from, nil for the region given.
    case invalidRegion(String, source: String?)
    /// No credentials anywhere; each string names a place looked and what was there.
    case missingCredentials(looked: [String])
    /// One of the pair `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` is set without the other.
    case incompleteEnvironment(present: String, missing: String)
    /// The credentials file exists but cannot be read (a directory, permission denied, not UTF-8, …).
    case unreadableCredentialsFile(FileReadError)
    /// A line of the credentials file is not INI.
    case malformedCredentialsFile(path: String, line: Int, reason: String)
    /// An explicitly named profile is not in the file.
    case profileNotFound(profile: String, path: String, available: [String])
    /// A profile lacks a key setting.
    case incompleteProfile(profile: String, path: String, missing: String)

    /// A one-line message for people, each parameter named by `name`.
    public func message(naming name: (Parameter) -> String) -> String {
        switch self {
        case .missingRegion(let looked):
            return "no AWS region for IAM auth: looked in \(Self.list([name(.region)] + looked)); "
                + "pass \(name(.region)) REGION or set AWS_REGION"
        case .invalidRegion(let region, let source):
            return "invalid AWS region '\(region)' from \(source ?? name(.region)): expected a region name such as eu-west-1"
        case .missingCredentials(let looked):
            return "no AWS credentials for IAM auth: looked in \(Self.list(looked)); set AWS_ACCESS_KEY_ID and "
                + "AWS_SECRET_ACCESS_KEY, or pass \(name(.profile)) NAME with a shared credentials file"
        case .incompleteEnvironment(let present, let missing):
            return "$\(present) is set but $\(missing) is not; set both (and AWS_SESSION_TOKEN for temporary credentials)"
        case .unreadableCredentialsFile(let error):
            return error.description
        case .malformedCredentialsFile(let path, let line, let reason):
            return "\(path):\(line): \(reason)"
        case .profileNotFound(let profile, let path, let available):
            let known = available.isEmpty ? "it has no profiles" : "it has " + available.map { "'\($0)'" }.joined(separator: ", ")
            return "no profile '\(profile)' in \(path) (\(known)); check \(name(.profile)) or $AWS_PROFILE"
        case .incompleteProfile(let profile, let path, let missing):
            return "profile '\(profile)' in \(path) has no \(missing)"
        }
    }

    private static func list(_ places: [String]) -> String {
        switch places.count {
        case 0: return "nowhere"
        case 1: return places[0]
        default: return places.dropLast().joined(separator: ", ") + " and " + (places.last ?? "")
        }
    }
}
