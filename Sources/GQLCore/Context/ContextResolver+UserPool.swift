import Synchronization

/// Settings that override the schema file's user pool (a sign-in's own options).
public struct UserPoolOverrides: Equatable, Sendable {
    public var poolId: String?
    public var clientId: String?
    public var clientSecret: String?
    public var endpoint: String?

    /// Overrides of the given settings.
    public init(poolId: String? = nil, clientId: String? = nil, clientSecret: String? = nil, endpoint: String? = nil) {
        self.poolId = poolId
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.endpoint = endpoint
    }
}

/// Gives the user-pool token to send: the stored one, refreshed when it expires soon or when `force` is set;
/// nil when it cannot, with the reason kept in ``failure`` for the caller to report once.
public final class TokenRenewal: Sendable {
    private let renewal: @Sendable (_ force: Bool) throws(ContextError) -> String
    private let lastFailure = Mutex<ContextError?>(nil)

    /// A renewal that asks `renewal` for the token.
    public init(_ renewal: @escaping @Sendable (_ force: Bool) throws(ContextError) -> String) {
        self.renewal = renewal
    }

    /// The token, or nil when the refresh failed (see ``failure``).
    public func renew(force: Bool) -> String? {
        do throws(ContextError) {
            let token = try renewal(force)
            lastFailure.withLock { $0 = nil }
            return token
        } catch {
            lastFailure.withLock { $0 = error }
            return nil
        }
    }

    /// Why the last renewal failed; nil when it succeeded or none was tried.
    public var failure: ContextError? { lastFailure.withLock { $0 } }
}

extension ContextResolver {
    /// Refresh tokens this many seconds before they expire.
    public static let refreshMargin = 300.0

    /// The user pool: the overrides, then ``ContextSettings/userPool``, then the schema file's `auth` section (or
    /// legacy keys).
    public func userPoolConfig(file: SchemaFile?, overrides: UserPoolOverrides = UserPoolOverrides()) throws(ContextError) -> UserPoolConfig {
        let given = settings.userPool
        let poolId = overrides.poolId ?? given.poolId ?? file?.service.userPoolId
        let clientId = overrides.clientId ?? given.clientId ?? file?.service.userPoolClientId
        guard let poolId, let clientId else { throw .noUserPool(missingPoolId: poolId == nil, file: file?.path) }
        guard poolId.contains("_") else { throw .invalidUserPoolId(poolId) }
        let secret = try (overrides.clientSecret ?? given.clientSecret).map { (given: String) throws(ContextError) in
            try prompts.clientSecret(given)
        }
        return UserPoolConfig(
            poolId: poolId, clientId: clientId, clientSecret: secret,
            endpoint: overrides.endpoint ?? given.endpoint)
    }

    /// The user pool (the schema file's, unless overridden), the token file, and what it holds for that pool.
    public func storedSignIn(_ overrides: UserPoolOverrides) throws(ContextError)
        -> (config: UserPoolConfig, store: TokenStore, signIn: StoredSignIn?)
    {
        let config = try userPoolConfig(file: schemaFile(required: false), overrides: overrides)
        let store = try tokenStore()
        do throws(CognitoError) {
            return (config, store, try store.signIn(for: config.storeKey))
        } catch {
            throw .cognito(error)
        }
    }

    /// Where tokens are kept.
    public func tokenStore() throws(ContextError) -> TokenStore {
        guard let store = TokenStore.standard(environment: settings.tokenStoreEnvironment) else { throw .noTokenStore }
        return store
    }

    /// A Cognito client for `config`.
    public func cognitoClient(_ config: UserPoolConfig) throws(ContextError) -> CognitoClient {
        CognitoClient(config: config, timeout: settings.timeout, caFile: try caFile(), cancellation: cancellation)
    }

    /// The stored sign-in, refreshed first when it expires within ``refreshMargin`` (or when `force` is set).
    public func currentSignIn(_ config: UserPoolConfig, force: Bool = false) throws(ContextError) -> StoredSignIn {
        let store = try tokenStore()
        let client = try cognitoClient(config)
        do throws(CognitoError) {
            guard let signIn = try store.signIn(for: config.storeKey) else { throw .notSignedIn }
            let expiresSoon = signIn.expiry.map { $0.seconds(since: now()) < Self.refreshMargin } ?? true
            guard force || expiresSoon else { return signIn }
            guard let refreshToken = signIn.refreshToken else { throw .signInAgain("no refresh token is stored") }
            note(.refreshingTokens)
            let tokens = try client.refresh(refreshToken: refreshToken, username: signIn.internalUsername)
            let refreshed = signIn.refreshed(with: tokens)
            try store.store(refreshed, for: config.storeKey)
            return refreshed
        } catch {
            throw .cognito(error)
        }
    }

    /// The token to send as `Authorization` (access or ID, by ``ContextSettings/sendsIDToken``), and a way to renew
    /// it: refreshed when it expires soon (a subscription connecting again), or at once when forced (after a 401).
    public func userPoolAuthorization(file: SchemaFile?) throws(ContextError) -> (String, TokenRenewal) {
        let config = try userPoolConfig(file: file)
        let signIn = try currentSignIn(config)
        let resolver = self
        let refresh = TokenRenewal { force throws(ContextError) in
            resolver.token(of: try resolver.currentSignIn(config, force: force))
        }
        return (token(of: signIn), refresh)
    }

    /// The token of `signIn` to send.
    public func token(of signIn: StoredSignIn) -> String {
        settings.sendsIDToken ? signIn.idToken : signIn.accessToken
    }

    /// The auth mode for a request: the auth-mode setting; nil when an API key, token, IAM or a profile is given (they
    /// choose as before); for a model with auth rules, the first mode its rules allow among the file's authorization
    /// types (Amplify's multi-auth order); else user pools when that is the file's default type.
    public func chosenAuthMode(file: SchemaFile?, model: Model?) throws(ContextError) -> AuthMode? {
        if let mode = settings.authMode, try authModeApplies(mode) {
            note(.authMode(mode.value, .setting(mode.origin)))
            return mode.value
        }
        if settings.apiKey != nil || settings.authToken != nil || settings.iam != nil || settings.profile != nil { return nil }
        guard let file else { return nil }
        let configured = file.service.authModes
        if let model, !model.authRules.isEmpty, !configured.isEmpty {
            let signedIn = (try? userPoolConfig(file: file)).flatMap { try? tokenStore().signIn(for: $0.storeKey) } != nil
            guard let mode = MultiAuth.choose(rules: model.authRules, configured: configured, signedIn: signedIn) else {
                let rules = model.authRules.map { rule in
                    rule.allow + " (" + (rule.provider ?? (rule.allow == "public" ? "apiKey" : "userPools")) + ")"
                }
                throw .authRulesUnmet(model: model.name, rules: rules, file: file.path, configured: configured)
            }
            note(.authMode(mode, .modelRules(model: model.name, configured: configured)))
            return mode
        }
        if file.service.defaultAuthorizationType == "AMAZON_COGNITO_USER_POOLS" {
            note(.authMode(.userPool, .defaultType(file: file.path)))
            return .userPool
        }
        return nil
    }

    /// Whether the auth-mode setting decides: an API key, token, IAM, profile or region on the command line that the
    /// mode does not use clashes with an auth mode given there too, and wins over one given at a lower level.
    private func authModeApplies(_ mode: Setting<AuthMode>) throws(ContextError) -> Bool {
        let given: [(Bool, Parameter, [AuthMode])] = [
            (settings.apiKey?.origin == .commandLine, .apiKey, [.apiKey]),
            (settings.authToken?.origin == .commandLine, .authToken, [.oidc, .lambda]),
            (settings.iam?.origin == .commandLine, .iam, [.iam]),
            (settings.profile != nil, .profile, [.iam]),
            (settings.region != nil, .region, [.iam]),
        ]
        for (isGiven, parameter, modes) in given where isGiven && !modes.contains(mode.value) {
            guard mode.origin == .commandLine else { return false }
            throw .authModeUnused(mode.value, parameter)
        }
        return true
    }
}
