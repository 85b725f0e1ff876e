/// Why a metadata source gave nothing: it is not there (a laptop has no instance metadata service).
struct SourceUnavailable: Error, Equatable {
    var reason: String
}

extension AWSCredentialChain {
    /// The container endpoint (ECS task roles, EKS Pod Identity): `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`
    /// under `http://169.254.170.2`, or `AWS_CONTAINER_CREDENTIALS_FULL_URI`, with the `Authorization` header
    /// from `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` or `AWS_CONTAINER_AUTHORIZATION_TOKEN`. Nil when neither URI is set.
    func container() throws(AWSAuthError) -> ResolvedCredentials? {
        let url: String
        if let relative = env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") {
            url = "http://169.254.170.2" + (relative.hasPrefix("/") ? relative : "/" + relative)
        } else if let full = env("AWS_CONTAINER_CREDENTIALS_FULL_URI") {
            url = full
        } else {
            return nil
        }
        let source = "the container credentials endpoint"
        guard let endpoint = EndpointURL(string: url) else {
            throw .serviceRefused(source: source, code: nil, message: "'\(url)' is not a URL")
        }
        var headers: [HTTPHeader] = [HTTPHeader(name: "Accept", value: "application/json")]
        if let tokenFile = env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE") {
            do {
                headers.append(HTTPHeader(name: "Authorization", value: try FileReader.text(atPath: tokenFile).trimmingWhitespace))
            } catch {
                throw .unreadableFile(what: "the container authorization token", error: error)
            }
        } else if let token = env("AWS_CONTAINER_AUTHORIZATION_TOKEN") {
            headers.append(HTTPHeader(name: "Authorization", value: token))
        }
        let request = HTTPRequest(url: endpoint, method: "GET", headers: headers, body: [], timeout: 2, caFile: services.caFile)
        let response = try services.send(request, source: source)
        let (credentials, expiration) = try services.metadataCredentials(response, source: source)
        return ResolvedCredentials(credentials: credentials, source: "\(source) \(url)", expiration: expiration)
    }

    /// IMDSv2, as botocore's `InstanceMetadataFetcher`: a session token by `PUT /latest/api/token`, the role
    /// name from `/latest/meta-data/iam/security-credentials/`, then its credentials. One attempt of one
    /// second each (`AWS_METADATA_SERVICE_TIMEOUT`, `AWS_METADATA_SERVICE_NUM_ATTEMPTS`), so a laptop does not
    /// wait; `AWS_EC2_METADATA_SERVICE_ENDPOINT` moves it. Success with nil: the instance has no role.
    func instanceMetadata() -> Result<ResolvedCredentials?, SourceUnavailable> {
        let base = env("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? "http://169.254.169.254"
        let timeout = env("AWS_METADATA_SERVICE_TIMEOUT").flatMap(Double.init) ?? 1
        let attempts = max(1, env("AWS_METADATA_SERVICE_NUM_ATTEMPTS").flatMap { Int($0) } ?? 1)
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        func get(_ path: String, method: String = "GET", headers: [HTTPHeader]) -> Result<HTTPResponse, SourceUnavailable> {
            guard let url = EndpointURL(string: root + path) else { return .failure(SourceUnavailable(reason: "'\(base)' is not a URL")) }
            var last = SourceUnavailable(reason: "not reachable at \(base)")
            for _ in 0..<attempts {
                do {
                    let response = try services.transport.send(
                        HTTPRequest(url: url, method: method, headers: headers, body: [], timeout: timeout), cancellation: services.cancellation)
                    if response.status < 500 { return .success(response) }
                    last = SourceUnavailable(reason: "HTTP \(response.status) from \(base)")
                } catch {
                    last = SourceUnavailable(reason: "not reachable at \(base)")
                }
            }
            return .failure(last)
        }
        var headers: [HTTPHeader] = []
        switch get("/latest/api/token", method: "PUT", headers: [HTTPHeader(name: "X-aws-ec2-metadata-token-ttl-seconds", value: "21600")]) {
        case .failure(let reason): return .failure(reason)
        case .success(let response) where response.isSuccess:
            headers.append(HTTPHeader(name: "X-aws-ec2-metadata-token", value: String(decoding: response.body, as: UTF8.self)))
        case .success(let response) where [403, 404, 405].contains(response.status):
            break  // IMDSv1 only, as botocore falls back.
        case .success(let response):
            return .failure(SourceUnavailable(reason: "HTTP \(response.status) for a session token from \(base)"))
        }
        let listPath = "/latest/meta-data/iam/security-credentials/"
        let role: String
        switch get(listPath, headers: headers) {
        case .failure(let reason): return .failure(reason)
        case .success(let response) where response.status == 404: return .success(nil)
        case .success(let response) where response.isSuccess:
            guard let first = String(decoding: response.body, as: UTF8.self).split(whereSeparator: \.isNewline).first else { return .success(nil) }
            role = first.trimmingSpaces
        case .success(let response):
            return .failure(SourceUnavailable(reason: "HTTP \(response.status) for the role name from \(base)"))
        }
        switch get(listPath + role, headers: headers) {
        case .failure(let reason): return .failure(reason)
        case .success(let response):
            let source = "the instance metadata service (role \(role))"
            do throws(AWSAuthError) {
                let (credentials, expiration) = try services.metadataCredentials(response, source: source)
                return .success(ResolvedCredentials(credentials: credentials, source: source, expiration: expiration))
            } catch {
                return .failure(SourceUnavailable(reason: error.message(naming: \.label)))
            }
        }
    }
}

extension ProfileResolver {
    /// An SSO profile (`sso_session`, or the legacy `sso_start_url`): the token `aws sso login` cached in
    /// `~/.aws/sso/cache/SHA1.json` (of the session name, or of the start URL), exchanged at the portal's
    /// `GetRoleCredentials` (`GET /federation/credentials`, botocore's `sso` service model). Nil for other profiles.
    func sso(profile: String, settings: [String: String]) throws(AWSAuthError) -> ResolvedCredentials? {
        let cacheKey: String
        let region: String?
        if let sessionName = settings["sso_session"] {
            guard let session = files.ssoSessions[sessionName] else {
                throw .invalidProfile(profile: profile, reason: "sso_session '\(sessionName)' has no [sso-session \(sessionName)] section in \(files.configPath)")
            }
            cacheKey = sessionName
            region = session["sso_region"]
        } else if let startURL = settings["sso_start_url"] {
            cacheKey = startURL
            region = settings["sso_region"]
        } else {
            return nil
        }
        guard let region, let account = settings["sso_account_id"], let roleName = settings["sso_role_name"] else {
            throw .invalidProfile(profile: profile, reason: "an SSO profile needs sso_region, sso_account_id and sso_role_name")
        }
        let cachePath = AWSEnvironment.home(chain.environment) + "/.aws/sso/cache/" + SHA1.hash(cacheKey).hexString + ".json"
        let cached: JSONValue
        do {
            cached = try JSONValue.parse(try FileReader.bytes(atPath: cachePath))
        } catch {
            throw .ssoLoginNeeded(profile: profile, reason: "no SSO token cached for profile '\(profile)' (\(cachePath))")
        }
        guard let token = cached["accessToken"]?.stringValue, let expires = cached["expiresAt"]?.stringValue.flatMap(ISO8601.parse) else {
            throw .ssoLoginNeeded(profile: profile, reason: "the cached SSO token \(cachePath) has no accessToken or expiresAt")
        }
        guard Timestamp.now() < expires else {
            throw .ssoLoginNeeded(profile: profile, reason: "the SSO token for profile '\(profile)' expired")
        }
        let base = try chain.serviceEndpoint(variable: "AWS_ENDPOINT_URL_SSO", fallback: "https://portal.sso.\(region).amazonaws.com")
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        let query = "role_name=\(CanonicalRequest.uriEncode(roleName))&account_id=\(CanonicalRequest.uriEncode(account))"
        let source = "SSO GetRoleCredentials for \(roleName) in account \(account)"
        guard let url = EndpointURL(string: root + "/federation/credentials?" + query) else {
            throw .serviceRefused(source: source, code: nil, message: "'\(root)' is not a URL")
        }
        let request = HTTPRequest(
            url: url, method: "GET", headers: [HTTPHeader(name: "x-amz-sso_bearer_token", value: token)], body: [],
            timeout: services.timeout, caFile: services.caFile)
        let response = try services.send(request, source: source)
        let answer = try? JSONValue.parse(response.body)
        if response.status == 401 || response.status == 403 {
            throw .ssoLoginNeeded(profile: profile, reason: "the SSO portal refused the cached token for profile '\(profile)'")
        }
        guard response.isSuccess, let role = answer?["roleCredentials"],
              let keyID = role["accessKeyId"]?.stringValue, let secret = role["secretAccessKey"]?.stringValue
        else {
            let error = AWSJSONError(response, json: answer)
            throw .serviceRefused(source: source, code: error.type, message: error.message ?? "HTTP \(response.status)")
        }
        let expiration = role["expiration"]?.numberText.flatMap(Double.init).map { Timestamp(secondsSince1970: $0 / 1000) }
        return ResolvedCredentials(
            credentials: AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: role["sessionToken"]?.stringValue),
            source: "profile '\(profile)': SSO role \(roleName) in account \(account)", expiration: expiration)
    }
}
