/// The claims of a JSON Web Token, read without verifying its signature (the server verifies it; gqlc only
/// needs the expiry and the names to show).
public struct JWTClaims: Sendable, Equatable {
    public let claims: JSONObject

    /// The payload of `token` (`header.payload.signature`, base64url); nil when it is not a JWT.
    public init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let payload = String(parts[1].filter { $0 != "=" })
        guard let bytes = Base64.decode(payload, alphabet: .url, padded: false),
              let value = try? JSONValue.parse(bytes), case .object(let object) = value
        else { return nil }
        claims = object
    }

    public func string(_ name: String) -> String? { claims[name]?.stringValue }

    /// A numeric claim such as `exp` (seconds since 1970).
    public func number(_ name: String) -> Double? { claims[name]?.numberText.flatMap(Double.init) }

    /// `exp` as a moment.
    public var expiry: Timestamp? { number("exp").map(Timestamp.init(secondsSince1970:)) }

    /// `cognito:groups`, empty when absent.
    public var groups: [String] { claims["cognito:groups"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
}
