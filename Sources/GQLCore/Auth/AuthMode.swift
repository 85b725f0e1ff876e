/// An AppSync authorization mode, as `--auth-mode` and Amplify's `authMode` name them.
public enum AuthMode: String, Sendable, Equatable, CaseIterable {
    case apiKey
    case iam
    case userPool
    case oidc
    case lambda

    /// The mode of an AppSync authorization type (`API_KEY`, `AWS_IAM`, `AMAZON_COGNITO_USER_POOLS`,
    /// `OPENID_CONNECT`, `AWS_LAMBDA`), or nil.
    public init?(authorizationType: String) {
        switch authorizationType {
        case "API_KEY": self = .apiKey
        case "AWS_IAM": self = .iam
        case "AMAZON_COGNITO_USER_POOLS": self = .userPool
        case "OPENID_CONNECT": self = .oidc
        case "AWS_LAMBDA": self = .lambda
        default: return nil
        }
    }

    /// The mode a rule's provider stands for (`userPools` → userPool, `function` → lambda); a rule without a
    /// provider takes the transformer's default: apiKey for `public`, userPools otherwise.
    public init?(rule: AuthRule) {
        switch rule.provider ?? (rule.allow == "public" ? "apiKey" : "userPools") {
        case "apiKey": self = .apiKey
        case "iam", "identityPool": self = .iam
        case "userPools": self = .userPool
        case "oidc": self = .oidc
        case "function": self = .lambda
        default: return nil
        }
    }
}

/// Picks the mode for one model's request as Amplify's multi-auth does (amplify-js DataStore `multiAuthStrategy`):
/// rules ordered by kind (custom, owner, groups, private, public), then by provider (function, userPools, oidc,
/// iam, apiKey); the first whose mode the API has configured wins. User-pool and OIDC modes are skipped when
/// there is no signed-in user and a later rule allows another configured mode.
public enum MultiAuth {
    static let kindOrder = ["custom", "owner", "groups", "private", "public"]
    static let providerOrder: [AuthMode] = [.lambda, .userPool, .oidc, .iam, .apiKey]

    /// The modes `rules` allow, in Amplify's order, without repeats.
    public static func candidates(_ rules: [AuthRule]) -> [AuthMode] {
        let ranked = rules.compactMap { rule in AuthMode(rule: rule).map { (rule, $0) } }.sorted { lhs, rhs in
            let l = (kindOrder.firstIndex(of: lhs.0.allow) ?? kindOrder.count, providerOrder.firstIndex(of: lhs.1) ?? 9)
            let r = (kindOrder.firstIndex(of: rhs.0.allow) ?? kindOrder.count, providerOrder.firstIndex(of: rhs.1) ?? 9)
            return l < r
        }
        var seen: [AuthMode] = []
        for (_, mode) in ranked where !seen.contains(mode) { seen.append(mode) }
        return seen
    }

    /// The first of the model's modes among `configured`, or nil when none is configured.
    public static func choose(rules: [AuthRule], configured: [AuthMode], signedIn: Bool) -> AuthMode? {
        let usable = candidates(rules).filter(configured.contains)
        if !signedIn, let other = usable.first(where: { $0 != .userPool && $0 != .oidc }) { return other }
        return usable.first
    }
}
