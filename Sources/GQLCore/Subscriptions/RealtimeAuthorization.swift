/// The auth "header object" of AppSync's real-time protocol: sent base64url-encoded as the
/// `header-…` WebSocket subprotocol when connecting, and in each `start` message's
/// `extensions.authorization`. `host` is always the GraphQL endpoint's host, not the real-time host.
///
/// | auth | object |
/// | --- | --- |
/// | API key | `{"host", "x-api-key"}` |
/// | token (Cognito, OIDC, Lambda) | `{"Authorization", "host"}` |
/// | IAM | the SigV4-signed headers of `POST <api>/connect` with body `{}`; for `start`, of `POST <api>` with the start's data as body |
public struct RealtimeAuthorization: Sendable {
    /// How requests are authorized.
    public enum Mode: Sendable {
        case apiKey(String)
        case token(String)
        case iam(SigV4Signer)
        /// No auth header (a server that needs none).
        case none
    }

    /// The GraphQL endpoint (`https://…/graphql`).
    public let apiURL: EndpointURL
    public let mode: Mode

    public init(apiURL: EndpointURL, mode: Mode) {
        self.apiURL = apiURL
        self.mode = mode
    }

    /// The auth mode of an HTTP endpoint: its signer, else its `x-api-key`, else its `Authorization` header.
    public init(endpoint: Endpoint) {
        apiURL = endpoint.url
        if let signer = endpoint.signer {
            mode = .iam(signer)
        } else if let key = endpoint.headers.first(where: { $0.hasName("x-api-key") }) {
            mode = .apiKey(key.value)
        } else if let token = endpoint.headers.first(where: { $0.hasName("Authorization") }) {
            mode = .token(token.value)
        } else {
            mode = .none
        }
    }

    /// The values never to show: the key, the token, or the signer's secrets.
    public var secrets: [String] {
        switch mode {
        case .apiKey(let key): [key]
        case .token(let token): [token]
        case .iam(let signer): signer.secrets
        case .none: []
        }
    }

    /// The object for the connection (`<api>/connect`, body `{}`), signed at `time` for IAM.
    public func connectHeader(at time: Timestamp) -> JSONObject {
        // As amplify-js signs it: the endpoint's text with `/connect` appended.
        header(url: (try? EndpointURL(parsing: apiURL.absoluteString + "/connect")) ?? apiURL, body: Array("{}".utf8), at: time)
    }

    /// The object for a `start` whose `payload.data` is `data`, signed over it at `time` for IAM.
    public func startHeader(data: String, at time: Timestamp) -> JSONObject {
        header(url: apiURL, body: Array(data.utf8), at: time)
    }

    /// The object for an Events API message (the connection with body `{}`, a `subscribe` with `{"channel"}`, a
    /// `publish` with `{"channel", "events"}`): signed over `body` at the API's HTTP URL (`…/event`) for IAM.
    public func eventsHeader(body: String, at time: Timestamp) -> JSONObject {
        header(url: apiURL, body: Array(body.utf8), at: time)
    }

    /// The `header-<base64url JSON, no padding>` subprotocol carrying `header`.
    /// The encoded part carries the key or token in base64, so it is registered as a secret (``ProcessSecrets``).
    public static func subprotocol(_ header: JSONObject) -> String {
        let encoded = Base64.encode(Array(JSONValue.object(header).serialized(.compact).utf8), alphabet: .url, padded: false)
        ProcessSecrets.register([encoded])
        return "header-" + encoded
    }

    private var host: String { CanonicalRequest.host(of: apiURL) }

    private func header(url: EndpointURL, body: [UInt8], at time: Timestamp) -> JSONObject {
        switch mode {
        case .apiKey(let key):
            return ["host": .string(host), "x-api-key": .string(key)]
        case .token(let token):
            return ["Authorization": .string(token), "host": .string(host)]
        case .none:
            return ["host": .string(host)]
        case .iam(let signer):
            let request = HTTPRequest(
                url: url, method: "POST",
                headers: [
                    HTTPHeader(name: "accept", value: "application/json, text/javascript"),
                    HTTPHeader(name: "content-encoding", value: "amz-1.0"),
                    HTTPHeader(name: "content-type", value: "application/json; charset=UTF-8"),
                    HTTPHeader(name: "host", value: host),
                ],
                body: body, timeout: 30)
            var object = JSONObject()
            for header in signer.sign(request, at: time).headers { object[header.name] = .string(header.value) }
            return object
        }
    }
}
