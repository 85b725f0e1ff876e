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
    /// A profile's settings cannot work together (both `source_profile` and `credential_source`, neither, an
    /// unknown `credential_source`, a `web_identity_token_file` without `role_arn`, …).
    case invalidProfile(profile: String, reason: String)
    /// `source_profile` names a profile that neither file has.
    case sourceProfileMissing(profile: String, source: String, files: String)
    /// `source_profile` settings that lead back to a profile already on the way.
    case profileCycle([String])
    /// A source profile (or credential source) gave no credentials.
    case sourceWithoutCredentials(profile: String, source: String)
    /// A credentials service refused or failed: STS (`code` is its error code), the SSO portal, the container
    /// or instance endpoint. `source` names the call, e.g. "STS AssumeRole for arn:aws:iam::…".
    case serviceRefused(source: String, code: String?, message: String)
    /// `credential_process` could not run, failed, or printed something other than its JSON.
    case credentialProcessFailed(profile: String, reason: String)
    /// The SSO token `aws sso login` cached is missing or expired.
    case ssoLoginNeeded(profile: String, reason: String)
    /// A file the chain reads (web identity token, container token) cannot be read.
    case unreadableFile(what: String, error: FileReadError)
    /// An environment variable the chain reads has a value it refuses (e.g. a container URI over plain http).
    case invalidSetting(variable: String, reason: String)

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
            let known = available.isEmpty ? "no profiles there" : "profiles there: " + available.map { "'\($0)'" }.joined(separator: ", ")
            let advice = Suggestions.closest(to: profile, in: available).map { "did you mean '\($0)'?" }
                ?? "check \(name(.profile)) or $AWS_PROFILE"
            return "no profile '\(profile)' in \(path) (\(known)); " + advice
        case .incompleteProfile(let profile, let path, let missing):
            return "profile '\(profile)' in \(path) has no \(missing)"
        case .invalidProfile(let profile, let reason):
            return "profile '\(profile)': \(reason)"
        case .sourceProfileMissing(let profile, let source, let files):
            return "profile '\(profile)' has source_profile '\(source)', but \(files) have no profile '\(source)'"
        case .profileCycle(let chain):
            return "the source_profile settings go round in a cycle: " + chain.map { "'\($0)'" }.joined(separator: " -> ")
        case .sourceWithoutCredentials(let profile, let source):
            return "profile '\(profile)': \(source) gave no credentials"
        case .serviceRefused(let source, let code, let message):
            return "\(source) failed: " + (code.map { "\($0): " } ?? "") + message.oneLine()
        case .credentialProcessFailed(let profile, let reason):
            return "credential_process of profile '\(profile)' \(reason.oneLine())"
        case .ssoLoginNeeded(let profile, let reason):
            return "\(reason); run aws sso login --profile \(profile)"
        case .unreadableFile(let what, let error):
            return "cannot read \(what): \(error.description)"
        case .invalidSetting(let variable, let reason):
            return "$\(variable): \(reason)"
        }
    }

    /// Whether a service (STS, SSO, a metadata endpoint), `credential_process` or the SSO login refused: an auth failure
    /// (exit 5 on the command line), not a usage mistake.
    public var isServiceRefusal: Bool {
        switch self {
        case .serviceRefused, .ssoLoginNeeded, .credentialProcessFailed: true
        default: false
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
