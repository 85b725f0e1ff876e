import GQLCore
import Synchronization

/// Settings given to `login`, `whoami` and `logout` that override the schema file's user pool.
struct UserPoolOverrides: Equatable, Sendable {
    var poolId: String?
    var clientId: String?
    var clientSecret: String?
    var endpoint: String?
}

/// Gives the user-pool token to send: the stored one, refreshed when it expires soon or when `force` is set;
/// nil when it cannot, with the reason kept in ``failure`` for the caller to report once.
final class TokenRenewal: Sendable {
    private let renewal: @Sendable (_ force: Bool) throws(RunFailure) -> String
    private let lastFailure = Mutex<RunFailure?>(nil)

    init(_ renewal: @escaping @Sendable (_ force: Bool) throws(RunFailure) -> String) {
        self.renewal = renewal
    }

    /// The token, or nil when the refresh failed (see ``failure``).
    func renew(force: Bool) -> String? {
        do throws(RunFailure) {
            let token = try renewal(force)
            lastFailure.withLock { $0 = nil }
            return token
        } catch {
            lastFailure.withLock { $0 = error }
            return nil
        }
    }

    /// Why the last renewal failed; nil when it succeeded or none was tried.
    var failure: RunFailure? { lastFailure.withLock { $0 } }
}

extension Session {
    /// Refresh tokens this many seconds before they expire.
    static let refreshMargin = 300.0

    /// The user pool: flags, then `GQLC_USER_POOL_ID`, `GQLC_CLIENT_ID`, `GQLC_CLIENT_SECRET`, `GQLC_COGNITO_ENDPOINT`,
    /// then the schema file's `auth` section (or legacy keys).
    func userPoolConfig(file: SchemaFile?, overrides: UserPoolOverrides = UserPoolOverrides()) throws(RunFailure) -> UserPoolConfig {
        let environment = globals.cognitoEnvironment
        let poolId = overrides.poolId ?? environment["GQLC_USER_POOL_ID"] ?? file?.service.userPoolId
        let clientId = overrides.clientId ?? environment["GQLC_CLIENT_ID"] ?? file?.service.userPoolClientId
        guard let poolId, let clientId else {
            let missing = poolId == nil ? "user pool id" : "app client id"
            let place = file.map { "\($0.path) has no auth.\(poolId == nil ? "user_pool_id" : "user_pool_client_id")" }
                ?? "no schema file was found"
            throw .usage("no Cognito \(missing): \(place); pass --user-pool-id and --client-id (or set GQLC_USER_POOL_ID "
                + "and GQLC_CLIENT_ID)")
        }
        guard poolId.contains("_") else {
            throw .usage("invalid user pool id '\(poolId)': expected REGION_ID, e.g. us-east-1_AbC123")
        }
        let secret = try (overrides.clientSecret ?? environment["GQLC_CLIENT_SECRET"]).map { (given: String) throws(RunFailure) in
            try SecretArguments.read(given, option: UserPoolOptions.clientSecret, console: console)
        }
        return UserPoolConfig(
            poolId: poolId, clientId: clientId, clientSecret: secret,
            endpoint: overrides.endpoint ?? environment["GQLC_COGNITO_ENDPOINT"])
    }

    /// The user pool (the schema file's, unless overridden), the token file, and what it holds for that pool.
    func storedSignIn(_ overrides: UserPoolOverrides) throws(RunFailure)
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
    func tokenStore() throws(RunFailure) -> TokenStore {
        guard let store = TokenStore.standard(environment: globals.cognitoEnvironment) else {
            throw .usage("no place for the token file: set XDG_CONFIG_HOME or HOME")
        }
        return store
    }

    /// A Cognito client for `config`.
    func cognitoClient(_ config: UserPoolConfig) throws(RunFailure) -> CognitoClient {
        CognitoClient(config: config, timeout: globals.timeout, caFile: try caFile(), cancellation: cancellation)
    }

    /// The stored sign-in, refreshed first when it expires within ``refreshMargin`` (or when `force` is set).
    func currentSignIn(_ config: UserPoolConfig, force: Bool = false) throws(RunFailure) -> StoredSignIn {
        let store = try tokenStore()
        let client = try cognitoClient(config)
        do throws(CognitoError) {
            guard let signIn = try store.signIn(for: config.storeKey) else { throw .notSignedIn }
            let expiresSoon = signIn.expiry.map { $0.seconds(since: Timestamp.now()) < Self.refreshMargin } ?? true
            guard force || expiresSoon else { return signIn }
            guard let refreshToken = signIn.refreshToken else { throw .signInAgain("no refresh token is stored") }
            if globals.verbose { console.error.write("* refreshing the user-pool tokens (REFRESH_TOKEN_AUTH)\n") }
            let tokens = try client.refresh(refreshToken: refreshToken, username: signIn.internalUsername)
            let refreshed = signIn.refreshed(with: tokens)
            try store.store(refreshed, for: config.storeKey)
            return refreshed
        } catch {
            throw .cognito(error)
        }
    }

    /// The token to send as `Authorization` (access or ID, by `--token-use`), and a way to renew it: refreshed when
    /// it expires soon (a subscription connecting again), or at once when forced (after a 401).
    func userPoolAuthorization(file: SchemaFile?) throws(RunFailure) -> (String, TokenRenewal) {
        let config = try userPoolConfig(file: file)
        let signIn = try currentSignIn(config)
        let session = self
        let refresh = TokenRenewal { force throws(RunFailure) in
            session.token(of: try session.currentSignIn(config, force: force))
        }
        return (token(of: signIn), refresh)
    }

    private func token(of signIn: StoredSignIn) -> String {
        globals.tokenUse == .id ? signIn.idToken : signIn.accessToken
    }

    /// The auth mode for a request: `--auth-mode`; nil when an API key, token, `--iam` or `--profile` is given (they
    /// choose as before); for a model with auth rules, the first mode its rules allow among the file's authorization
    /// types (Amplify's multi-auth order); else user pools when that is the file's default type.
    func chosenAuthMode(file: SchemaFile?, model: Model?) throws(RunFailure) -> AuthMode? {
        if let mode = globals.authMode, try authModeApplies(mode) {
            note("auth mode: \(mode.value.rawValue) (\(mode.origin.describe(GlobalOptions.authModeOption)))")
            return mode.value
        }
        if globals.apiKey != nil || globals.authToken != nil || globals.iam != nil || globals.profile != nil { return nil }
        guard let file else { return nil }
        let configured = file.service.authModes
        if let model, !model.authRules.isEmpty, !configured.isEmpty {
            let signedIn = (try? userPoolConfig(file: file)).flatMap { try? tokenStore().signIn(for: $0.storeKey) } != nil
            guard let mode = MultiAuth.choose(rules: model.authRules, configured: configured, signedIn: signedIn) else {
                let rules = model.authRules.map { rule in
                    rule.allow + " (" + (rule.provider ?? (rule.allow == "public" ? "apiKey" : "userPools")) + ")"
                }
                throw .usage(
                    "\(model.name)'s auth rules allow \(rules.joined(separator: ", ")), but \(file.path) configures only "
                        + configured.map(\.rawValue).joined(separator: ", ") + "; pass --auth-mode to choose one anyway")
            }
            note("auth mode: \(mode.rawValue) (the first of \(model.name)'s rules, in Amplify's multi-auth order, "
                + "among the configured \(configured.map(\.rawValue).joined(separator: ", ")))")
            return mode
        }
        if file.service.defaultAuthorizationType == "AMAZON_COGNITO_USER_POOLS" {
            note("auth mode: userPool (the default authorization type of \(file.path))")
            return .userPool
        }
        return nil
    }

    /// Whether `--auth-mode` decides: an API key, token, `--iam`, `--profile` or `--region` on the command line that
    /// the mode does not use clashes with `--auth-mode` given there too, and wins over `GQLC_AUTH_MODE`.
    private func authModeApplies(_ mode: Setting<AuthMode>) throws(RunFailure) -> Bool {
        let given: [(Bool, OptionSpec, [AuthMode])] = [
            (globals.apiKey?.origin == .commandLine, GlobalOptions.apiKeyOption, [.apiKey]),
            (globals.authToken?.origin == .commandLine, GlobalOptions.authTokenOption, [.oidc, .lambda]),
            (globals.iam?.origin == .commandLine, GlobalOptions.iamOption, [.iam]),
            (globals.profile != nil, GlobalOptions.profileOption, [.iam]),
            (globals.region != nil, GlobalOptions.regionOption, [.iam]),
        ]
        for (isGiven, option, modes) in given where isGiven && !modes.contains(mode.value) {
            guard mode.origin == .commandLine else { return false }
            throw .usage(
                "--auth-mode \(mode.value.rawValue) does not use \(option.flagName); leave out one of them")
        }
        return true
    }

    private func note(_ text: String) {
        if globals.verbose { console.error.write("* \(text)\n") }
    }
}
