/// Signs HTTP requests with AWS Signature Version 4, as AppSync's `AWS_IAM` auth mode requires.
///
/// Each attempt is signed afresh (``GraphQLClient`` does it with its clock), so a retry carries a new
/// `x-amz-date`. Signed: `host`, `content-type` and every `x-amz-*` header (`x-amz-date`, and
/// `x-amz-security-token` for temporary credentials), plus the SHA-256 of the body.
///
/// ```swift
/// let signer = SigV4Signer(credentials: credentials, region: "eu-west-1")
/// let signed = signer.sign(request, at: .now())   // adds X-Amz-Date, X-Amz-Security-Token?, Authorization
/// ```
public struct SigV4Signer: Sendable, Equatable {
    /// The signing algorithm's name, first in the string to sign and in `Authorization`.
    public static let algorithm = "AWS4-HMAC-SHA256"

    /// Who signs.
    public var credentials: AWSCredentials
    /// The API's region, e.g. `eu-west-1`.
    public var region: String
    /// The service name in the credential scope; AppSync's is `appsync`.
    public var service: String
    /// Refreshes temporary credentials before they expire; each request is then signed with its current ones.
    public var refreshing: RefreshingCredentials?
    /// Where the credentials came from (`profile 'dev' (…)`), for messages; never a secret.
    public var credentialSource: String?

    /// Makes a signer; `service` defaults to AppSync's.
    public init(credentials: AWSCredentials, region: String, service: String = "appsync") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The values that must never be shown: the secret access key and the session token.
    public var secrets: [String] {
        [credentials.secretAccessKey, credentials.sessionToken].compactMap { $0 } + (refreshing?.secrets ?? [])
    }

    /// `request` with `X-Amz-Date`, `X-Amz-Security-Token` (temporary credentials only) and `Authorization`
    /// set for the moment `date`; any earlier values of those headers are replaced.
    public func sign(_ request: HTTPRequest, at date: Timestamp) -> HTTPRequest {
        if let refreshing {
            var current = self
            current.refreshing = nil
            current.credentials = refreshing.credentials(at: date)
            return current.sign(request, at: date)
        }
        let when = SigningDate(date)
        var signed = request
        signed.headers.removeAll { $0.hasName("Authorization") }
        signed.headers.set("X-Amz-Date", when.timestamp)
        if let token = credentials.sessionToken {
            signed.headers.set("X-Amz-Security-Token", token)
        } else {
            signed.headers.removeAll { $0.hasName("X-Amz-Security-Token") }
        }
        let parts = signature(for: signed, at: date)
        let scope = credentialScope(when)
        signed.headers.append(HTTPHeader(
            name: "Authorization",
            value: "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope), "
                + "SignedHeaders=\(parts.canonical.signedHeaders), Signature=\(parts.signature)"))
        return signed
    }

    /// The canonical request, the string to sign and the signature of a request whose `x-amz-date`
    /// (and session token) are already set; exposed so tests can check each step.
    public func signature(for request: HTTPRequest, at date: Timestamp) -> (canonical: CanonicalRequest, stringToSign: String, signature: String) {
        let when = SigningDate(date)
        let canonical = CanonicalRequest(request)
        let stringToSign = [
            Self.algorithm, when.timestamp, credentialScope(when), SHA256.hash(canonical.text).hexString,
        ].joined(separator: "\n")
        let signature = HMACSHA256.authenticationCode(key: signingKey(day: when.day), message: stringToSign).hexString
        return (canonical, stringToSign, signature)
    }

    /// `20150830/us-east-1/appsync/aws4_request`.
    func credentialScope(_ date: SigningDate) -> String {
        "\(date.day)/\(region)/\(service)/aws4_request"
    }

    /// The key derived from the secret for one day, region and service.
    public func signingKey(day: String) -> [UInt8] {
        let dateKey = HMACSHA256.authenticationCode(key: Array("AWS4\(credentials.secretAccessKey)".utf8), message: day)
        let regionKey = HMACSHA256.authenticationCode(key: dateKey, message: region)
        let serviceKey = HMACSHA256.authenticationCode(key: regionKey, message: service)
        return HMACSHA256.authenticationCode(key: serviceKey, message: "aws4_request")
    }
}

/// The canonical form of a request that SigV4 hashes: method, URI, query, signed headers and body hash.
public struct CanonicalRequest: Sendable, Equatable {
    /// The whole canonical request, lines joined by `\n`.
    public let text: String
    /// The signed header names, lowercase, sorted, joined by `;`.
    public let signedHeaders: String

    /// The canonical form of `request`: `host` (from the URL unless a `Host` header is given),
    /// `content-type` and `x-amz-*` headers are signed, their values trimmed with inner runs of spaces collapsed.
    public init(_ request: HTTPRequest) {
        var values: [String: [String]] = ["host": []]
        for header in request.headers {
            let name = header.name.lowercased()
            guard name == "host" || name == "content-type" || name.hasPrefix("x-amz-") else { continue }
            values[name, default: []].append(Self.canonicalValue(header.value))
        }
        if values["host"]?.isEmpty ?? true { values["host"] = [Self.host(of: request.url)] }
        let names = values.keys.sorted()
        let headerLines = names.map { "\($0):\((values[$0] ?? []).joined(separator: ","))\n" }.joined()
        signedHeaders = names.joined(separator: ";")
        text = [
            request.method.uppercased(), Self.canonicalURI(request.url), Self.canonicalQuery(request.url),
            headerLines, signedHeaders, SHA256.hash(request.body).hexString,
        ].joined(separator: "\n")
    }

    /// The `Host` header URLSession sends: the host, and the port unless it is the scheme's default.
    static func host(of url: EndpointURL) -> String { url.hostForHeader }

    /// The path as sent, each segment percent-encoded once more (the rule for every service but S3); `/` when empty.
    static func canonicalURI(_ url: EndpointURL) -> String {
        let path = url.path
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { uriEncode(String($0)) }.joined(separator: "/")
    }

    /// Query parameters decoded, re-encoded strictly and sorted by name, then value.
    static func canonicalQuery(_ url: EndpointURL) -> String {
        guard let query = url.query, !query.isEmpty else {
            return ""
        }
        let pairs = query.split(separator: "&").map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { part in
                uriEncode(EndpointURL.percentDecoded(part.replacing("+", with: " ")))
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Percent-encodes every byte but the unreserved characters `A-Z a-z 0-9 - . _ ~`, with uppercase hex digits.
    static func uriEncode(_ text: String) -> String {
        var result: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.append(byte)
            default:
                result.append(UInt8(ascii: "%"))
                Hex.append(byte, to: &result, uppercase: true)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The value trimmed, with each run of spaces or tabs inside it made one space.
    static func canonicalValue(_ value: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in value.trimmingSpaces {
            if character == " " || character == "\t" {
                pendingSpace = true
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }
}

/// A moment in the two UTC forms SigV4 uses: `20150830T123600Z` and `20150830`.
struct SigningDate: Equatable {
    /// `YYYYMMDD'T'HHMMSS'Z'`, the `x-amz-date` value.
    let timestamp: String
    /// `YYYYMMDD`, the credential scope's date.
    var day: String { String(timestamp.prefix(8)) }

    /// The UTC calendar date and time of `date`, whole seconds, computed without a locale-dependent formatter.
    init(_ date: Timestamp) {
        timestamp = date.compactUTC
    }
}
