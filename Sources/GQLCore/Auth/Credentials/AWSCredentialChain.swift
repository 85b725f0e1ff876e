/// Finds AWS credentials in botocore's order (its `create_credential_resolver`):
///
/// 1. `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (`AWS_SESSION_TOKEN`), unless a profile was given explicitly;
/// 2. the profile (explicit, `AWS_PROFILE`, else `default`) of the config and credentials files:
///    `role_arn` with `source_profile` (chained, cycles refused) or `credential_source` → STS `AssumeRole`;
///    web identity (`AWS_WEB_IDENTITY_TOKEN_FILE` + `AWS_ROLE_ARN` from the environment unless a profile was
///    given explicitly, else the profile's `web_identity_token_file` + `role_arn`) → `AssumeRoleWithWebIdentity`;
///    SSO (`sso_session` or `sso_start_url`) → the portal's `GetRoleCredentials`; static keys of the credentials
///    file; `credential_process`; static keys of the config file;
/// 3. the container endpoint (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` / `_FULL_URI`);
/// 4. the instance metadata service (IMDSv2), unless `AWS_EC2_METADATA_DISABLED=true`.
///
/// ```swift
/// let found = try AWSCredentialChain(environment: env, services: CredentialServices(transport: CurlTransport.shared)).resolve()
/// ```
public struct AWSCredentialChain: Sendable {
    /// The process environment.
    public var environment: [String: String]
    /// The profile given on the command line; it turns off credentials from environment variables.
    public var explicitProfile: String?
    /// How to reach STS, SSO and the metadata endpoints.
    public var services: CredentialServices
    /// Asks for an MFA code for a device serial number (on a terminal); nil when nobody can be asked.
    public var mfaCode: (@Sendable (_ serial: String) -> String?)?

    /// Makes a chain.
    public init(
        environment: [String: String], explicitProfile: String? = nil, services: CredentialServices,
        mfaCode: (@Sendable (_ serial: String) -> String?)? = nil
    ) {
        self.environment = environment
        self.explicitProfile = explicitProfile
        self.services = services
        self.mfaCode = mfaCode
    }

    /// The profile in use: the explicit one, `AWS_PROFILE`, else `default`.
    public var profileName: String { explicitProfile ?? env("AWS_PROFILE") ?? "default" }

    /// The `region` of the profile in use, from the config file.
    public func profileRegion(in files: AWSProfileFiles) -> AWSProfileRegion {
        AWSProfileRegion(name: profileName, region: files.config[profileName]?["region"], path: files.configPath)
    }

    /// Checks that a profile named by flag or `AWS_PROFILE` is in the files, as the AWS CLI does (only `default`
    /// may be absent). Run before the region is looked for: a mistyped profile has no region either, and "no
    /// region" would hide the typo.
    public func requireNamedProfile(in files: AWSProfileFiles) throws(AWSAuthError) {
        guard files.profile(profileName) == nil, explicitProfile != nil || env("AWS_PROFILE") != nil else { return }
        throw .profileNotFound(profile: profileName, path: files.bothPaths, available: files.profileNames)
    }

    /// The config and credentials files, read once (either may be a pipe).
    public func loadFiles() throws(AWSAuthError) -> AWSProfileFiles {
        try AWSProfileFiles.load(environment: environment)
    }

    /// The first credentials found, or an error naming every place looked; `files` when already read,
    /// else they are read now.
    public func resolve(files preloaded: AWSProfileFiles? = nil) throws(AWSAuthError) -> ResolvedCredentials {
        var looked: [String] = []
        if explicitProfile == nil {
            if let found = try fromEnvironment() { return found }
            looked.append("$AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY (not set)")
        }
        let files: AWSProfileFiles
        if let preloaded { files = preloaded } else { files = try loadFiles() }
        let name = profileName
        let settings = files.profile(name)
        try requireNamedProfile(in: files)
        let resolver = ProfileResolver(chain: self, files: files)
        if let settings, settings["role_arn"] != nil, settings["web_identity_token_file"] == nil {
            return try resolver.assumeRole(profile: name, settings: settings, visited: [name])
        }
        if let found = try resolver.webIdentity(profile: name, settings: settings ?? [:], useEnvironment: explicitProfile == nil) {
            return found
        }
        looked.append("$AWS_WEB_IDENTITY_TOKEN_FILE (not set)")
        if settings != nil, let found = try resolver.profileProviders(name) { return found }
        looked.append("profile '\(name)' in \(files.bothPaths) (" + (settings == nil ? "no such profile" : "no credentials") + ")")
        if let found = try container() { return found }
        looked.append("the container endpoint ($AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI not set)")
        if AWSEnvironment.isTrue("AWS_EC2_METADATA_DISABLED", environment) {
            looked.append("the instance metadata service (disabled by $AWS_EC2_METADATA_DISABLED)")
        } else {
            switch instanceMetadata() {
            case .success(let found?): return found
            case .success(nil): looked.append("the instance metadata service (no role)")
            case .failure(let reason): looked.append("the instance metadata service (\(reason.reason))")
            }
        }
        throw .missingCredentials(looked: looked)
    }

    /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, with `AWS_SESSION_TOKEN`; nil when neither is set.
    func fromEnvironment() throws(AWSAuthError) -> ResolvedCredentials? {
        switch (env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY")) {
        case (let keyID?, let secret?):
            let credentials = AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"))
            return ResolvedCredentials(credentials: credentials, source: "the environment ($AWS_ACCESS_KEY_ID)")
        case (.some, nil):
            throw .incompleteEnvironment(present: "AWS_ACCESS_KEY_ID", missing: "AWS_SECRET_ACCESS_KEY")
        case (nil, .some):
            throw .incompleteEnvironment(present: "AWS_SECRET_ACCESS_KEY", missing: "AWS_ACCESS_KEY_ID")
        case (nil, nil):
            return nil
        }
    }

    /// A set, non-empty environment variable.
    func env(_ name: String) -> String? { AWSEnvironment.value(name, environment) }
}
