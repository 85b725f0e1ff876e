/// Where a user pool is and which app client signs in: from `amplify_outputs.json` (`auth.*`), the legacy keys,
/// or settings that override them.
public struct UserPoolConfig: Sendable, Equatable {
    public var poolId: String
    public var clientId: String
    public var clientSecret: String?
    /// The Cognito endpoint; nil means `https://cognito-idp.<region>.amazonaws.com/` for the pool's region.
    public var endpoint: String?

    public init(poolId: String, clientId: String, clientSecret: String? = nil, endpoint: String? = nil) {
        self.poolId = poolId
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.endpoint = endpoint
    }

    /// The region prefix of the pool id (`us-east-1_AbC` → `us-east-1`).
    public var region: String { poolId.split(separator: "_").first.map(String.init) ?? poolId }

    /// The URL requests go to.
    public var endpointURL: String {
        if let endpoint { return endpoint }
        let suffix = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        return "https://cognito-idp.\(region).\(suffix)/"
    }

    /// The token store's key: one entry per pool and app client.
    public var storeKey: String { "\(poolId)/\(clientId)" }
}

/// The tokens a sign-in or refresh returns.
public struct CognitoTokens: Sendable, Equatable {
    public var accessToken: String
    public var idToken: String
    /// Absent after REFRESH_TOKEN_AUTH: the old one stays valid.
    public var refreshToken: String?
}

/// One step of a sign-in: tokens, or a challenge to answer.
public enum CognitoAuthStep: Sendable, Equatable {
    case signedIn(CognitoTokens)
    /// The challenge's name, its session and parameters (USERNAME among them).
    case challenge(name: String, session: String?, parameters: [String: String])
}

/// A Cognito user-pool client over JSON (`AWSCognitoIdentityProviderService.*`, unsigned): SRP and password sign-in,
/// challenge answers, refresh and revocation.
public struct CognitoClient: Sendable {
    public let config: UserPoolConfig
    public var timeout: Double
    public var caFile: String?
    let transport: any HTTPTransport
    let cancellation: CancellationFlag?

    public init(config: UserPoolConfig, timeout: Double = Defaults.timeout, caFile: String? = nil,
                transport: any HTTPTransport = CurlTransport.shared, cancellation: CancellationFlag? = nil) {
        self.config = config
        if let secret = config.clientSecret { ProcessSecrets.register([secret]) }  // sent as it is by RevokeToken
        self.timeout = timeout
        self.caFile = caFile
        self.transport = transport
        self.cancellation = cancellation
    }

    /// USER_SRP_AUTH: sends A, answers PASSWORD_VERIFIER at once; returns tokens or the next challenge.
    public func signInSRP(username: String, password: String, now: () -> Timestamp = Timestamp.now) throws(CognitoError) -> CognitoAuthStep {
        ProcessSecrets.register([password])
        let srp = CognitoSRP(poolId: config.poolId)
        let secret = CognitoSRP.randomSecret()
        var parameters = ["USERNAME": username, "SRP_A": srp.publicValue(secret).hex]
        parameters["SECRET_HASH"] = secretHash(username)
        let first = try initiate(flow: "USER_SRP_AUTH", parameters: parameters)
        guard case .challenge("PASSWORD_VERIFIER", let session, let challenge) = first else { return first }
        guard let salt = challenge["SALT"], let b = challenge["SRP_B"], let block = challenge["SECRET_BLOCK"] else {
            throw .badChallenge("PASSWORD_VERIFIER without SALT, SRP_B or SECRET_BLOCK")
        }
        let userName = challenge["USERNAME"] ?? username
        let inputs = CognitoSRP.Challenge(
            userIdForSRP: challenge["USER_ID_FOR_SRP"] ?? userName, salt: salt, serverPublic: b, secretBlock: block)
        let derived = try srp.derive(secret: secret, password: password, challenge: inputs)
        let timestamp = CognitoSRP.timestamp(now())
        var responses = [
            "USERNAME": userName, "PASSWORD_CLAIM_SECRET_BLOCK": block, "TIMESTAMP": timestamp,
            "PASSWORD_CLAIM_SIGNATURE": try srp.claimSignature(key: derived.key, challenge: inputs, timestamp: timestamp),
        ]
        responses["SECRET_HASH"] = secretHash(userName)
        return try respond(challenge: "PASSWORD_VERIFIER", session: session, responses: responses)
    }

    /// USER_PASSWORD_AUTH, for app clients that allow it.
    public func signInPassword(username: String, password: String) throws(CognitoError) -> CognitoAuthStep {
        ProcessSecrets.register([password])  // sent as it is: a server that echoes the request must not show it
        var parameters = ["USERNAME": username, "PASSWORD": password]
        parameters["SECRET_HASH"] = secretHash(username)
        return try initiate(flow: "USER_PASSWORD_AUTH", parameters: parameters)
    }

    /// The response key that carries the answer to `challenge` (`SMS_MFA_CODE`, `NEW_PASSWORD`); nil for one
    /// gqlc cannot answer.
    public static func answerKey(for challenge: String) -> String? {
        switch challenge {
        case "NEW_PASSWORD_REQUIRED": "NEW_PASSWORD"
        case "SMS_MFA": "SMS_MFA_CODE"
        case "SOFTWARE_TOKEN_MFA": "SOFTWARE_TOKEN_MFA_CODE"
        case "EMAIL_OTP": "EMAIL_OTP_CODE"
        case "SMS_OTP": "SMS_OTP_CODE"
        default: nil
        }
    }

    /// Answers a code or new-password challenge with `answer`.
    public func answer(challenge: String, session: String?, parameters: [String: String], username: String,
                       answer: String) throws(CognitoError) -> CognitoAuthStep {
        guard let key = Self.answerKey(for: challenge) else { throw .unsupportedChallenge(challenge) }
        let userName = parameters["USERNAME"] ?? username
        if key == "NEW_PASSWORD" { ProcessSecrets.register([answer]) }
        var responses = ["USERNAME": userName, key: answer]
        responses["SECRET_HASH"] = secretHash(userName)
        return try respond(challenge: challenge, session: session, responses: responses)
    }

    /// REFRESH_TOKEN_AUTH. `username` is the internal user name (the access token's `username`), for SECRET_HASH.
    /// A refused refresh token is ``CognitoError/signInAgain(_:)``.
    public func refresh(refreshToken: String, username: String?) throws(CognitoError) -> CognitoTokens {
        var parameters = ["REFRESH_TOKEN": refreshToken]
        if let username { parameters["SECRET_HASH"] = secretHash(username) }
        let step: CognitoAuthStep
        do throws(CognitoError) {
            step = try initiate(flow: "REFRESH_TOKEN_AUTH", parameters: parameters)
        } catch {
            if case .service("NotAuthorizedException", let message) = error { throw .signInAgain(message) }
            throw error
        }
        guard case .signedIn(let tokens) = step else { throw .badChallenge("a refresh answered with a challenge") }
        return tokens
    }

    /// RevokeToken: ends the refresh token (and the tokens issued from it).
    public func revoke(refreshToken: String) throws(CognitoError) {
        var body: JSONObject = ["Token": .string(refreshToken), "ClientId": .string(config.clientId)]
        if let secret = config.clientSecret { body["ClientSecret"] = .string(secret) }
        _ = try call("RevokeToken", .object(body))
    }

    /// `Base64(HMAC-SHA256(secret, username ‖ clientId))` when the app client has a secret.
    func secretHash(_ username: String) -> String? {
        guard let secret = config.clientSecret else { return nil }
        return Base64.encode(HMACSHA256.authenticationCode(key: Array(secret.utf8), message: username + config.clientId))
    }

    private func initiate(flow: String, parameters: [String: String]) throws(CognitoError) -> CognitoAuthStep {
        let body: JSONObject = [
            "AuthFlow": .string(flow), "ClientId": .string(config.clientId), "AuthParameters": Self.object(parameters),
        ]
        return try Self.step(try call("InitiateAuth", .object(body)))
    }

    private func respond(challenge: String, session: String?, responses: [String: String]) throws(CognitoError) -> CognitoAuthStep {
        var body: JSONObject = [
            "ChallengeName": .string(challenge), "ClientId": .string(config.clientId),
            "ChallengeResponses": Self.object(responses),
        ]
        if let session { body["Session"] = .string(session) }
        return try Self.step(try call("RespondToAuthChallenge", .object(body)))
    }

    private static func object(_ values: [String: String]) -> JSONValue {
        .object(JSONObject(values.sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: .string($0.value)) }))
    }

    private static func step(_ reply: JSONObject) throws(CognitoError) -> CognitoAuthStep {
        if let result = reply["AuthenticationResult"]?.objectValue {
            guard let access = result["AccessToken"]?.stringValue, let id = result["IdToken"]?.stringValue else {
                throw .badResponse(status: 200, reason: "AuthenticationResult without AccessToken and IdToken")
            }
            let refresh = result["RefreshToken"]?.stringValue
            ProcessSecrets.register([access, id, refresh ?? ""])
            return .signedIn(CognitoTokens(accessToken: access, idToken: id, refreshToken: refresh))
        }
        guard let name = reply["ChallengeName"]?.stringValue else {
            throw .badResponse(status: 200, reason: "neither AuthenticationResult nor ChallengeName")
        }
        var parameters: [String: String] = [:]
        for member in reply["ChallengeParameters"]?.objectValue ?? [:] {
            if let text = member.value.stringValue { parameters[member.key] = text }
        }
        return .challenge(name: name, session: reply["Session"]?.stringValue, parameters: parameters)
    }

    /// POSTs one operation and returns its JSON reply; a Cognito error becomes ``CognitoError/service(type:message:)``.
    func call(_ operation: String, _ body: JSONValue) throws(CognitoError) -> JSONObject {
        let url: EndpointURL
        do {
            url = try EndpointURL(parsing: config.endpointURL)
        } catch {
            throw .missingConfiguration("invalid Cognito endpoint '\(config.endpointURL)': \(error)")
        }
        let headers = [
            HTTPHeader(name: "Content-Type", value: "application/x-amz-json-1.1"),
            HTTPHeader(name: "X-Amz-Target", value: "AWSCognitoIdentityProviderService.\(operation)"),
            HTTPHeader(name: "Cache-Control", value: "no-store"),
        ]
        let request = HTTPRequest(url: url, headers: headers, body: Array(body.serialized(.compact).utf8), timeout: timeout, caFile: caFile)
        let response: HTTPResponse
        do {
            response = try transport.send(request, cancellation: cancellation)
        } catch {
            throw .transport(error)
        }
        let json = try? JSONValue.parse(response.body)
        if response.isSuccess {
            guard case .object(let object)? = json else {
                throw .badResponse(status: response.status, reason: "the body is not a JSON object")
            }
            return object
        }
        let error = AWSJSONError(response, json: json)
        let message = error.message ?? ""
        guard let type = error.type else {
            throw .badResponse(status: response.status, reason: message.isEmpty ? "not a Cognito error" : message)
        }
        throw .service(type: type, message: message)
    }
}
