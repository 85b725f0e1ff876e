/// Why signing in to a Cognito user pool, or using its tokens, failed. Messages never contain a password or token.
public enum CognitoError: Error, Sendable, Equatable, RemedialMessage {
    /// Cognito refused: its error type (`NotAuthorizedException`) and message.
    case service(type: String, message: String)
    /// The request could not be sent or answered.
    case transport(TransportError)
    /// An answer that is not Cognito's JSON (HTTP status and a short reason).
    case badResponse(status: Int, reason: String)
    /// A challenge whose parameters cannot be used.
    case badChallenge(String)
    /// A challenge gqlc cannot answer, by name.
    case unsupportedChallenge(String)
    /// The stored refresh token was refused: a new sign-in is needed. The server's message.
    case signInAgain(String)
    /// No stored tokens for this user pool and app client.
    case notSignedIn
    /// The token file cannot be used; the message says why.
    case tokenStore(String)
    /// The token file at this path holds something else than stored sign-ins.
    case unrecognizedTokenFile(path: String)
    /// Not enough configuration to reach the user pool (what is missing).
    case missingConfiguration(String)

    /// The one-line message, with the remedy (signing in) said by `name`.
    public func message(remedy name: (Remedy) -> String) -> String {
        switch self {
        case .service(let type, let message):
            let text = message.isEmpty ? type : "\(message) (\(type))"
            return text + Self.hint(type: type, message: message)
        case .transport(let error): return "Cognito: " + error.message { $0.label }
        case .badResponse(let status, let reason): return "Cognito answered HTTP \(status): \(reason)"
        case .badChallenge(let reason): return "unusable sign-in challenge: \(reason)"
        case .unsupportedChallenge(let name):
            return "the user pool asks for the \(name) challenge, which gqlc cannot answer; complete it in the app "
                + "(or the Cognito console), then sign in again"
        case .signInAgain(let message): return "the stored sign-in can no longer be refreshed (\(message)); \(name(.signInAgain))"
        case .notSignedIn: return "not signed in to this user pool; \(name(.signIn))"
        case .tokenStore(let message): return message
        case .unrecognizedTokenFile(let path):
            return "the token file \(path) is not what gqlc writes; delete it and \(name(.signIn))"
        case .missingConfiguration(let what): return what
        }
    }

    private static func hint(type: String, message: String) -> String {
        if message.contains("USER_PASSWORD_AUTH flow not enabled") {
            return "; sign in with SRP (leave out the password-auth option)"
        }
        if message.contains("USER_SRP_AUTH flow not enabled") { return "; try the password-auth option" }
        if type == "UserNotConfirmedException" { return "; confirm the sign-up first" }
        return ""
    }
}
