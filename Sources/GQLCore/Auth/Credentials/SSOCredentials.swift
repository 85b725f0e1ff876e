extension ProfileResolver {
    /// An SSO profile (`sso_session`, or the legacy `sso_start_url`): the token `aws sso login` cached in
    /// `~/.aws/sso/cache/SHA1.json` (of the session name, or of the start URL), exchanged at the portal's
    /// `GetRoleCredentials` (`GET /federation/credentials`, botocore's `sso` service model). Nil for other profiles.
    ///
    /// As botocore's `SSOTokenProvider`, a `sso_session` token due within 15 minutes that carries a refresh token
    /// and a live client registration is refreshed first through SSO OIDC `CreateToken` and written back to the
    /// cache; legacy profiles, and tokens without a refresh token, say to run `aws sso login` once expired.
    func sso(profile: String, settings: [String: String]) throws(AWSAuthError) -> ResolvedCredentials? {
        let cacheKey: String
        let region: String?
        var session: SSOSession?
        if let sessionName = settings["sso_session"] {
            guard let section = files.ssoSessions[sessionName] else {
                throw .invalidProfile(profile: profile, reason: "sso_session '\(sessionName)' has no [sso-session \(sessionName)] section in \(files.configPath)")
            }
            cacheKey = sessionName
            region = section["sso_region"]
            if let region, let startURL = section["sso_start_url"] {
                session = SSOSession(name: sessionName, startURL: startURL, region: region)
            }
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
        let bytes: [UInt8]
        do {
            bytes = try FileReader.bytes(atPath: cachePath)
        } catch {
            throw .ssoLoginNeeded(profile: profile, reason: "no SSO token cached for profile '\(profile)' (\(cachePath))")
        }
        guard let cached = (try? JSONValue.parse(bytes))?.objectValue else {
            throw .ssoLoginNeeded(profile: profile, reason: "the cached SSO token \(cachePath) is not a JSON object")
        }
        guard var token = cached["accessToken"]?.stringValue, var expires = cached["expiresAt"]?.stringValue.flatMap(ISO8601.parse) else {
            throw .ssoLoginNeeded(profile: profile, reason: "the cached SSO token \(cachePath) has no accessToken or expiresAt")
        }
        var refreshNote = ""
        let now = Timestamp.now()
        if let session, expires.seconds(since: now) < 15 * 60 {
            switch refreshSSOToken(cached, session: session, at: now) {
            case .notRefreshable:
                break
            case .failed(let reason) where !(now < expires):
                throw .ssoLoginNeeded(
                    profile: profile, reason: "the SSO token for profile '\(profile)' expired and could not be refreshed (\(reason))")
            case .failed:
                break  // Still valid for a while: use it, as botocore does.
            case .refreshed(let fresh):
                (token, expires) = (fresh.accessToken, fresh.expiresAt)
                refreshNote = ", SSO token refreshed"
                do {
                    try FileWriter.write(Array(fresh.cacheEntry.serialized().utf8), to: cachePath, mode: 0o600)
                } catch {
                    refreshNote += " (not saved: \(error.description))"
                }
            }
        }
        guard Timestamp.now() < expires else {
            throw .ssoLoginNeeded(profile: profile, reason: "the SSO token for profile '\(profile)' expired")
        }
        let found = try roleCredentials(profile: profile, token: token, region: region, account: account, roleName: roleName)
        return ResolvedCredentials(
            credentials: found.credentials, source: found.source + refreshNote, expiration: found.expiration)
    }

    /// The portal's `GetRoleCredentials` with the access token.
    private func roleCredentials(
        profile: String, token: String, region: String, account: String, roleName: String
    ) throws(AWSAuthError) -> ResolvedCredentials {
        let base = try endpoint(service: "sso", fallback: "https://portal.sso.\(region).amazonaws.com")
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

    /// SSO OIDC `CreateToken` with the cached refresh token (`POST /token`, grant `refresh_token`, unsigned;
    /// botocore's `sso-oidc` service model), when the cache holds `refreshToken`, `clientId`, `clientSecret` and a
    /// `registrationExpiresAt` still ahead, as botocore requires.
    private func refreshSSOToken(_ cached: JSONObject, session: SSOSession, at now: Timestamp) -> SSORefresh {
        guard let refreshToken = cached["refreshToken"]?.stringValue, let clientID = cached["clientId"]?.stringValue,
              let clientSecret = cached["clientSecret"]?.stringValue,
              let registration = cached["registrationExpiresAt"]?.stringValue,
              let registrationEnds = ISO8601.parse(registration), now < registrationEnds
        else { return .notRefreshable }
        let call = "SSO OIDC CreateToken"
        do throws(AWSAuthError) {
            let base = try endpoint(
                service: "sso_oidc", fallback: "https://oidc.\(session.region).amazonaws.com")
            let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
            guard let url = EndpointURL(string: root + "/token") else { return .failed("'\(root)' is not a URL") }
            let body: JSONValue = [
                "clientId": .string(clientID), "clientSecret": .string(clientSecret), "grantType": "refresh_token",
                "refreshToken": .string(refreshToken),
            ]
            let request = HTTPRequest(
                url: url, method: "POST", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                body: Array(body.serialized().utf8), timeout: services.timeout, caFile: services.caFile)
            let response = try services.send(request, source: call)
            let answer = try? JSONValue.parse(response.body)
            guard response.isSuccess, let accessToken = answer?["accessToken"]?.stringValue,
                  let expiresIn = answer?["expiresIn"]?.numberText.flatMap(Double.init)
            else {
                let error = AWSJSONError(response, json: answer)
                let message = answer?["error_description"]?.stringValue ?? error.message ?? CredentialServices.statusLine(response)
                return .failed("\(call) failed: " + (error.type.map { "\($0): " } ?? "") + message.oneLine())
            }
            // What botocore writes back: the session, the new token, and the registration kept alongside it.
            var entry: JSONObject = [
                "startUrl": .string(session.startURL), "region": .string(session.region), "accessToken": .string(accessToken),
                "expiresAt": .string(ISO8601.format(now.adding(seconds: expiresIn))), "clientId": .string(clientID),
                "clientSecret": .string(clientSecret), "registrationExpiresAt": .string(registration),
            ]
            entry["refreshToken"] = answer?["refreshToken"]?.stringValue.map(JSONValue.string)
            return .refreshed(SSOFreshToken(
                accessToken: accessToken, expiresAt: now.adding(seconds: expiresIn), cacheEntry: .object(entry)))
        } catch {
            return .failed(error.message(naming: \.label))
        }
    }
}

/// An `[sso-session NAME]` section with what a token refresh needs.
struct SSOSession {
    var name: String
    var startURL: String
    var region: String
}

/// A token SSO OIDC just issued, and the cache entry that records it.
struct SSOFreshToken {
    var accessToken: String
    var expiresAt: Timestamp
    var cacheEntry: JSONValue
}

/// What an attempt to refresh the cached SSO token came to.
enum SSORefresh {
    /// The cache has no refresh token or client registration, or the registration expired.
    case notRefreshable
    /// SSO OIDC refused or could not be reached; the reason, without secrets.
    case failed(String)
    case refreshed(SSOFreshToken)
}
