/// Temporary credentials and when they stop working.
public struct ResolvedCredentials: Sendable, Equatable {
    /// The keys.
    public var credentials: AWSCredentials
    /// Where they came from, for `--verbose` (never a secret), e.g. "profile 'dev': role … assumed through STS".
    public var source: String
    /// When temporary credentials expire; nil for long-lived keys.
    public var expiration: Timestamp?

    /// Makes a value from its parts.
    public init(credentials: AWSCredentials, source: String, expiration: Timestamp? = nil) {
        self.credentials = credentials
        self.source = source
        self.expiration = expiration
    }
}

/// HTTP calls to the services that hand out credentials (STS, the SSO portal, the container and instance
/// endpoints), through gqlc's transport, so proxies and CA settings apply as for the API.
public struct CredentialServices: Sendable {
    /// The transport to send with.
    public var transport: any HTTPTransport
    /// Seconds to wait for STS and the SSO portal.
    public var timeout: Double
    /// CA certificates for HTTPS, as for the API.
    public var caFile: String?
    /// Set to stop waiting.
    public var cancellation: CancellationFlag?

    /// Makes the caller.
    public init(transport: any HTTPTransport, timeout: Double = Defaults.credentialServiceTimeout, caFile: String? = nil, cancellation: CancellationFlag? = nil) {
        self.transport = transport
        self.timeout = timeout
        self.caFile = caFile
        self.cancellation = cancellation
    }

    /// Sends `request`; a transport failure becomes `serviceRefused` naming `source`.
    func send(_ request: HTTPRequest, source: String) throws(AWSAuthError) -> HTTPResponse {
        do {
            return try transport.send(request, cancellation: cancellation)
        } catch {
            throw .serviceRefused(source: source, code: nil, message: error.message(naming: \.label))
        }
    }

    /// `HTTP 500 <the body on one line, cut at 200 characters>`, for an answer that says nothing better.
    static func statusLine(_ response: HTTPResponse) -> String {
        "HTTP \(response.status) " + String(decoding: response.body, as: UTF8.self).oneLine(lineBreaks: .collapsed, cut: .end(200))
    }

    // MARK: STS

    /// `AssumeRole` or `AssumeRoleWithWebIdentity` (query protocol, version 2011-06-15, answers in XML), as
    /// botocore's `sts` service model describes them. `signer` signs `AssumeRole`; the web-identity call is unsigned.
    func sts(
        action: String, parameters: [(String, String)], endpoint: EndpointURL, signer: SigV4Signer?, source: String
    ) throws(AWSAuthError) -> (AWSCredentials, Timestamp?) {
        let form = ([("Action", action), ("Version", "2011-06-15")] + parameters)
            .map { "\(CanonicalRequest.uriEncode($0.0))=\(CanonicalRequest.uriEncode($0.1))" }.joined(separator: "&")
        var request = HTTPRequest(
            url: endpoint, method: "POST",
            headers: [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded; charset=utf-8")],
            body: Array(form.utf8), timeout: timeout, caFile: caFile)
        if let signer { request = signer.sign(request, at: .now()) }
        let response = try send(request, source: source)
        let text = String(decoding: response.body, as: UTF8.self)
        let root = XMLElement.parse(text)
        guard response.isSuccess else {
            let code = root?.text(of: "Code")
            let message = root?.text(of: "Message") ?? Self.statusLine(response)
            throw .serviceRefused(source: source, code: code, message: message)
        }
        guard let credentials = root?.descendant("Credentials"),
              let keyID = credentials.text(of: "AccessKeyId"), let secret = credentials.text(of: "SecretAccessKey")
        else {
            throw .serviceRefused(source: source, code: nil, message: "the answer has no Credentials element")
        }
        let expiration = credentials.text(of: "Expiration").flatMap(ISO8601.parse)
        return (AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: credentials.text(of: "SessionToken")), expiration)
    }

    /// Credentials in the JSON shape the container endpoint and IMDS answer with (AWS docs, "IAM roles for
    /// Amazon EC2" and "Task IAM role"): `AccessKeyId`, `SecretAccessKey`, `Token`, `Expiration`.
    func metadataCredentials(_ response: HTTPResponse, source: String) throws(AWSAuthError) -> (AWSCredentials, Timestamp?) {
        guard response.isSuccess else {
            throw .serviceRefused(source: source, code: nil, message: Self.statusLine(response))
        }
        guard let value = try? JSONValue.parse(response.body),
              let keyID = value["AccessKeyId"]?.stringValue, let secret = value["SecretAccessKey"]?.stringValue
        else {
            throw .serviceRefused(source: source, code: nil, message: "the answer is not JSON with AccessKeyId and SecretAccessKey")
        }
        let expiration = value["Expiration"]?.stringValue.flatMap(ISO8601.parse)
        return (AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: value["Token"]?.stringValue), expiration)
    }
}

/// ISO 8601 date-times as AWS writes them: `2026-11-23T22:00:00Z`, with fractional seconds, a `+hh:mm`
/// offset, or the legacy SSO cache's `UTC` suffix.
enum ISO8601 {
    /// `2026-11-23T22:00:00Z`, whole seconds: how botocore writes `expiresAt` into the SSO cache.
    static func format(_ moment: Timestamp) -> String { moment.iso8601UTC }

    static func parse(_ text: String) -> Timestamp? {
        let utf8 = Array(text.trimmingSpaces.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= utf8.count else { return nil }
            var value = 0
            for byte in utf8[start..<(start + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard utf8.count >= 19, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
              utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: " "),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              let base = Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var index = 19
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            while index < utf8.count, (48...57).contains(utf8[index]) { index += 1 }
        }
        let zone = String(decoding: utf8[index...], as: UTF8.self)
        if zone == "Z" || zone == "UTC" || zone.isEmpty { return base }
        guard zone.count == 6, let sign = zone.first, sign == "+" || sign == "-",
              let hours = number(index + 1, 2), let minutes = number(index + 4, 2)
        else { return nil }
        let offset = Double(hours * 3600 + minutes * 60)
        return base.adding(seconds: sign == "+" ? -offset : offset)
    }
}
