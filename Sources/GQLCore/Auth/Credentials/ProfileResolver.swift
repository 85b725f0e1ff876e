/// The profile-based sources of ``AWSCredentialChain``: role chains, web identity, SSO, static keys and
/// `credential_process`, as botocore's `AssumeRoleProvider` and `ProfileProviderBuilder` resolve them.
struct ProfileResolver {
    let chain: AWSCredentialChain
    let files: AWSProfileFiles

    var services: CredentialServices { chain.services }

    /// The region STS is called in: the profile's, the environment's, else `us-east-1`.
    private var stsRegion: String {
        files.config[chain.profileName]?["region"].flatMap { $0.isEmpty ? nil : $0 }
            ?? chain.env("AWS_REGION") ?? chain.env("AWS_DEFAULT_REGION") ?? "us-east-1"
    }

    private var defaultSessionName: String { "gqlc-session-\(Int(Timestamp.now().secondsSince1970))" }

    /// `role_arn` with `source_profile` or `credential_source`: the source's credentials, then `AssumeRole`.
    func assumeRole(profile: String, settings: [String: String], visited: [String]) throws(AWSAuthError) -> ResolvedCredentials {
        let roleARN = settings["role_arn"] ?? ""
        let source: ResolvedCredentials
        switch (settings["source_profile"], settings["credential_source"]) {
        case (.some, .some):
            throw .invalidProfile(profile: profile, reason: "it has both source_profile and credential_source; keep one")
        case (nil, nil):
            throw .invalidProfile(profile: profile, reason: "role_arn needs source_profile or credential_source")
        case (nil, let credentialSource?):
            source = try fromCredentialSource(credentialSource, profile: profile)
        case (let sourceName?, nil):
            guard let sourceSettings = files.profile(sourceName) else {
                throw .sourceProfileMissing(profile: profile, source: sourceName, files: files.bothPaths)
            }
            if visited.contains(sourceName), sourceName != profile || !Self.hasStaticKeys(sourceSettings) {
                throw .profileCycle(visited + [sourceName])
            }
            if Self.hasStaticKeys(sourceSettings) || !Self.assumesRole(sourceSettings) {
                guard let found = try profileProviders(sourceName) else {
                    throw .sourceWithoutCredentials(profile: profile, source: "source profile '\(sourceName)'")
                }
                source = found
            } else {
                source = try assumeRole(profile: sourceName, settings: sourceSettings, visited: visited + [sourceName])
            }
        }
        var parameters = [("RoleArn", roleARN), ("RoleSessionName", settings["role_session_name"] ?? defaultSessionName)]
        if let externalID = settings["external_id"] { parameters.append(("ExternalId", externalID)) }
        if let duration = settings["duration_seconds"].flatMap({ Int($0) }) { parameters.append(("DurationSeconds", String(duration))) }
        if let serial = settings["mfa_serial"] {
            guard let code = chain.mfaCode?(serial), !code.isEmpty else {
                throw .invalidProfile(profile: profile, reason: "mfa_serial needs an MFA code, and there is no terminal to ask for it")
            }
            parameters += [("SerialNumber", serial), ("TokenCode", code)]
        }
        let region = stsRegion
        let call = "STS AssumeRole for \(roleARN) (profile '\(profile)')"
        let (credentials, expiration) = try services.sts(
            action: "AssumeRole", parameters: parameters, endpoint: try endpoint(service: "sts", fallback: "https://sts.\(region).amazonaws.com"),
            signer: SigV4Signer(credentials: source.credentials, region: region, service: "sts"), source: call)
        return ResolvedCredentials(
            credentials: credentials, source: "profile '\(profile)': role \(roleARN) assumed with \(source.source)",
            expiration: expiration)
    }

    /// The providers botocore runs for a profile without the environment: web identity, SSO, the credentials
    /// file's keys, `credential_process`, the config file's keys. Nil when none gives credentials.
    func profileProviders(_ profile: String) throws(AWSAuthError) -> ResolvedCredentials? {
        let settings = files.profile(profile) ?? [:]
        if let found = try webIdentity(profile: profile, settings: settings, useEnvironment: false) { return found }
        if let found = try sso(profile: profile, settings: settings) { return found }
        if let found = try staticKeys(profile: profile, in: files.credentials[profile], path: files.credentialsPath) { return found }
        if let command = settings["credential_process"] {
            let (credentials, expiration) = try CredentialProcess.run(command, profile: profile, environment: chain.environment)
            return ResolvedCredentials(
                credentials: credentials, source: "profile '\(profile)': credential_process", expiration: expiration)
        }
        return try staticKeys(profile: profile, in: files.config[profile], path: files.configPath)
    }

    /// `aws_access_key_id` and `aws_secret_access_key` of one file's profile; nil without a key id.
    private func staticKeys(profile: String, in settings: [String: String]?, path: String) throws(AWSAuthError) -> ResolvedCredentials? {
        guard let settings, let keyID = settings["aws_access_key_id"], !keyID.isEmpty else { return nil }
        guard let secret = settings["aws_secret_access_key"], !secret.isEmpty else {
            throw .incompleteProfile(profile: profile, path: path, missing: "aws_secret_access_key")
        }
        let credentials = AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret,
            sessionToken: settings["aws_session_token"] ?? settings["aws_security_token"])
        return ResolvedCredentials(credentials: credentials, source: "profile '\(profile)' in \(path)")
    }

    /// A token file and a role: `AssumeRoleWithWebIdentity` (unsigned). The environment's variables win over
    /// the profile's settings when `useEnvironment`; nil without a token file.
    func webIdentity(profile: String, settings: [String: String], useEnvironment: Bool) throws(AWSAuthError) -> ResolvedCredentials? {
        func setting(_ variable: String, _ key: String) -> String? {
            (useEnvironment ? chain.env(variable) : nil) ?? settings[key].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let tokenFile = setting("AWS_WEB_IDENTITY_TOKEN_FILE", "web_identity_token_file") else { return nil }
        guard let roleARN = setting("AWS_ROLE_ARN", "role_arn") else {
            throw .invalidProfile(profile: profile, reason: "a web identity token file (\(tokenFile)) needs a role_arn or $AWS_ROLE_ARN")
        }
        let token: String
        do {
            token = try FileReader.text(atPath: AWSEnvironment.expandingTilde(tokenFile, home: AWSEnvironment.home(chain.environment)))
        } catch {
            throw .unreadableFile(what: "the web identity token", error: error)
        }
        let parameters = [
            ("RoleArn", roleARN), ("RoleSessionName", setting("AWS_ROLE_SESSION_NAME", "role_session_name") ?? defaultSessionName),
            ("WebIdentityToken", token),
        ]
        let (credentials, expiration) = try services.sts(
            action: "AssumeRoleWithWebIdentity", parameters: parameters, endpoint: try endpoint(service: "sts", fallback: "https://sts.\(stsRegion).amazonaws.com"),
            signer: nil, source: "STS AssumeRoleWithWebIdentity for \(roleARN)")
        return ResolvedCredentials(
            credentials: credentials, source: "web identity token \(tokenFile): role \(roleARN)", expiration: expiration)
    }

    /// `credential_source`: `Environment`, `Ec2InstanceMetadata` or `EcsContainer`.
    private func fromCredentialSource(_ name: String, profile: String) throws(AWSAuthError) -> ResolvedCredentials {
        let found: ResolvedCredentials?
        switch name {
        case "Environment":
            found = try chain.fromEnvironment()
        case "EcsContainer":
            found = try chain.container()
        case "Ec2InstanceMetadata":
            switch chain.instanceMetadata() {
            case .success(let credentials): found = credentials
            case .failure(let reason): throw .sourceWithoutCredentials(profile: profile, source: "credential_source Ec2InstanceMetadata (\(reason.reason))")
            }
        default:
            throw .invalidProfile(
                profile: profile, reason: "credential_source '\(name)' is not one of Environment, Ec2InstanceMetadata, EcsContainer")
        }
        guard let found else { throw .sourceWithoutCredentials(profile: profile, source: "credential_source \(name)") }
        return found
    }

    /// The endpoint of `service` (`sts`, `sso`, `sso_oidc`), looked up as botocore's `ConfiguredEndpointProvider`
    /// does: `AWS_ENDPOINT_URL_<SERVICE>`, `AWS_ENDPOINT_URL`, the profile's `services` section, the profile's
    /// `endpoint_url`; none of them with `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true` or the profile's
    /// `ignore_configured_endpoint_urls = true`; else `fallback`.
    func endpoint(service: String, fallback: String) throws(AWSAuthError) -> EndpointURL {
        let profile = files.profile(chain.profileName) ?? [:]
        let variable = "AWS_ENDPOINT_URL_" + service.uppercased()
        var found: (text: String, origin: String)?
        let ignored = chain.env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS").map { $0.lowercased() == "true" }
            ?? (profile["ignore_configured_endpoint_urls"]?.lowercased() == "true")
        if !ignored {
            found = chain.env(variable).map { ($0, "$\(variable)") } ?? chain.env("AWS_ENDPOINT_URL").map { ($0, "$AWS_ENDPOINT_URL") }
        }
        if !ignored, found == nil {
            if let name = profile["services"] {
                guard let section = files.services[name] else {
                    throw .invalidProfile(profile: chain.profileName, reason: "services '\(name)' has no [services \(name)] section in \(files.configPath)")
                }
                found = section["\(service).endpoint_url"].map { ($0, "\(service) endpoint_url of [services \(name)]") }
            }
            found = found ?? profile["endpoint_url"].map { ($0, "endpoint_url of profile '\(chain.profileName)'") }
        }
        let (text, origin) = found ?? (fallback, "the default endpoint")
        do {
            return try EndpointURL(parsing: text)
        } catch {
            throw .serviceRefused(source: origin, code: nil, message: "'\(text)' is not a URL: \(error)")
        }
    }

    static func hasStaticKeys(_ settings: [String: String]) -> Bool {
        settings["aws_access_key_id"] != nil || settings["aws_secret_access_key"] != nil
    }

    static func assumesRole(_ settings: [String: String]) -> Bool {
        settings["role_arn"] != nil && settings["web_identity_token_file"] == nil
    }
}
