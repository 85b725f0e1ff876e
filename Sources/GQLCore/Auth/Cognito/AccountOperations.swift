/// What signing in asks the person signing in.
public enum SignInQuestion: Sendable, Equatable {
    case username
    case password
    /// A new password (Cognito's `NEW_PASSWORD_REQUIRED` challenge).
    case newPassword
    /// The answer to the challenge named (an SMS, e-mail or authenticator code).
    case code(challenge: String)

    /// What is asked for, as a prompt names it: `username`, `code (SMS_MFA)`.
    public var label: String {
        switch self {
        case .username: "username"
        case .password: "password"
        case .newPassword: "new password"
        case .code(let challenge): "code (\(challenge))"
        }
    }

    /// A password: asked for without echo.
    public var isSecret: Bool { self == .password || self == .newPassword }
}

/// Why signing in, out or reading who is signed in failed.
public enum AccountError: Error, Sendable, Equatable {
    /// The user pool, the token file or the Cognito client could not be resolved.
    case context(ContextError)
    /// Cognito refused or could not be reached, or the token file could not be read or written.
    case cognito(CognitoError)
    /// A question was not answered (the one who asked knows why).
    case unanswered
    /// Cognito ended the sign-in without tokens.
    case noTokens
}

/// Signs in to the app's user pool (SRP, or the password flow when asked), answering Cognito's challenges through
/// `ask`, and stores the tokens that requests then send.
public struct LoginOperation: Sendable {
    /// The user; asked for when nil.
    public var username: String?
    /// `USER_PASSWORD_AUTH` (the password goes to Cognito) instead of SRP.
    public var passwordAuth: Bool
    /// The user pool and app client to use instead of the schema file's.
    public var userPool: UserPoolOverrides

    /// A sign-in as `username` (asked for when nil), by SRP unless `passwordAuth`.
    public init(username: String?, passwordAuth: Bool = false, userPool: UserPoolOverrides = UserPoolOverrides()) {
        self.username = username
        self.passwordAuth = passwordAuth
        self.userPool = userPool
    }

    /// Who signed in to which pool, and where the tokens are.
    public struct SignedIn: Sendable, Equatable {
        /// The user signed in.
        public var username: String
        /// The user pool's id.
        public var poolId: String
        /// The file the tokens were stored in.
        public var tokenFile: String
    }

    /// Signs in over `resolver` (its schema file's user pool unless overridden); `ask` answers each question, nil
    /// when it cannot.
    public func run(resolver: ContextResolver, ask: (SignInQuestion) -> String?) throws(AccountError) -> SignedIn {
        let config = try context { () throws(ContextError) in
            try resolver.userPoolConfig(file: resolver.schemaFile(required: false), overrides: userPool)
        }
        let store = try context { () throws(ContextError) in try resolver.tokenStore() }
        func answer(_ question: SignInQuestion) throws(AccountError) -> String {
            guard let answer = ask(question) else { throw .unanswered }
            return answer
        }
        var username = self.username ?? ""
        if self.username == nil { username = try answer(.username) }
        let password = try answer(.password)
        let client = try context { () throws(ContextError) in try resolver.cognitoClient(config) }
        var step = try cognito { () throws(CognitoError) in
            passwordAuth
                ? try client.signInPassword(username: username, password: password)
                : try client.signInSRP(username: username, password: password)
        }
        // Answer challenges (a new password, an MFA code) until Cognito hands out tokens.
        while case .challenge(let name, let challengeSession, let parameters) = step {
            guard CognitoClient.answerKey(for: name) != nil else { throw .cognito(.unsupportedChallenge(name)) }
            let reply = try answer(name == "NEW_PASSWORD_REQUIRED" ? .newPassword : .code(challenge: name))
            step = try cognito { () throws(CognitoError) in
                try client.answer(challenge: name, session: challengeSession, parameters: parameters, username: username, answer: reply)
            }
        }
        guard case .signedIn(let tokens) = step else { throw .noTokens }
        let signIn = StoredSignIn(
            username: username, accessToken: tokens.accessToken, idToken: tokens.idToken, refreshToken: tokens.refreshToken)
        try cognito { () throws(CognitoError) in try store.store(signIn, for: config.storeKey) }
        return SignedIn(username: username, poolId: config.poolId, tokenFile: store.path)
    }
}

/// Forgets the user pool's stored tokens, after asking Cognito to revoke the refresh token.
public struct LogoutOperation: Sendable {
    /// The user pool and app client to use instead of the schema file's.
    public var userPool: UserPoolOverrides

    /// A sign-out of `userPool` (by default the schema file's).
    public init(userPool: UserPoolOverrides = UserPoolOverrides()) { self.userPool = userPool }

    /// Signs out over `resolver`: the pool's id, and whether anyone was signed in. A revocation that fails (a server
    /// without RevokeToken, no network) is told to `revokeFailed`, and the tokens are forgotten all the same.
    public func run(resolver: ContextResolver, revokeFailed: (CognitoError) -> Void) throws(AccountError) -> (poolId: String, signedOut: Bool) {
        let (config, store, stored) = try context { () throws(ContextError) in try resolver.storedSignIn(userPool) }
        guard let signIn = stored else { return (config.poolId, false) }
        let client = try context { () throws(ContextError) in try resolver.cognitoClient(config) }
        if let refreshToken = signIn.refreshToken {
            do throws(CognitoError) {
                try client.revoke(refreshToken: refreshToken)
            } catch {
                revokeFailed(error)
            }
        }
        try cognito { () throws(CognitoError) in try store.store(nil, for: config.storeKey) }
        return (config.poolId, true)
    }
}

/// Who is signed in, from the stored tokens' claims (never a token); nothing is sent.
public struct WhoamiOperation: Sendable {
    /// The user pool and app client to use instead of the schema file's.
    public var userPool: UserPoolOverrides

    /// A look at who is signed in to `userPool` (by default the schema file's).
    public init(userPool: UserPoolOverrides = UserPoolOverrides()) { self.userPool = userPool }

    /// The user's names and groups from the ID token (the access token when it lacks them), the pool and client, and
    /// when the tokens expire (and whether they have, by the resolver's clock).
    public func run(resolver: ContextResolver) throws(AccountError) -> JSONValue {
        let (config, _, stored) = try context { () throws(ContextError) in try resolver.storedSignIn(userPool) }
        guard let signIn = stored else { throw .cognito(.notSignedIn) }
        let id = JWTClaims(token: signIn.idToken)
        let access = JWTClaims(token: signIn.accessToken)
        var object: JSONObject = [
            "username": .string(access?.string("username") ?? id?.string("cognito:username") ?? signIn.username),
            "signedInAs": .string(signIn.username),
        ]
        object["sub"] = (id?.string("sub") ?? access?.string("sub")).map(JSONValue.string)
        object["email"] = id?.string("email").map(JSONValue.string)
        object["groups"] = .array((id?.groups ?? access?.groups ?? []).map(JSONValue.string))
        object["userPoolId"] = .string(config.poolId)
        object["clientId"] = .string(config.clientId)
        if let expiry = signIn.expiry {
            object["expiresAt"] = .string(expiry.iso8601UTC)
            object["expired"] = .bool(expiry < resolver.now())
        }
        return .object(object)
    }
}

private func context<T>(_ body: () throws(ContextError) -> T) throws(AccountError) -> T {
    do {
        return try body()
    } catch {
        throw .context(error)
    }
}

private func cognito<T>(_ body: () throws(CognitoError) -> T) throws(AccountError) -> T {
    do {
        return try body()
    } catch {
        throw .cognito(error)
    }
}
