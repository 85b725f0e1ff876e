/// Where and how requests go: URL, headers (auth included), request signing and timeout. Retrying is the
/// client's (``GraphQLClient/retry``).
///
/// ```swift
/// let endpoint = try Endpoint(url: "https://abc.appsync-api.eu-west-1.amazonaws.com/graphql",
///                             apiKey: "da2-…", headerLines: ["x-trace: 1"], timeout: 30)
/// ```
public struct Endpoint: Sendable, Equatable {
    /// The GraphQL endpoint.
    public var url: EndpointURL
    /// Every header sent with each request, in order: `Content-Type`, `Accept`, auth, then extra headers.
    public var headers: [HTTPHeader]
    /// Seconds one request (one attempt) may take.
    public var timeout: Double
    /// Signs each attempt for AppSync IAM auth (SigV4), or nil.
    public var signer: SigV4Signer?
    /// A PEM file of CA certificates to verify the server with instead of the system's, or nil.
    public var caFile: String?
    /// The most bytes a response body may hold once decoded.
    public var maxResponseBytes = Defaults.maxResponseMiB << 20
    /// Whether `Authorization` carries the stored user-pool sign-in's token (for error hints).
    public var sendsUserPoolToken = false

    /// How requests are authorized, for error hints.
    public var requestAuthorization: RequestAuthorization {
        if let signer { return .iam(source: signer.credentialSource) }
        return sendsUserPoolToken ? .userPool : .keyOrToken
    }

    /// Builds an endpoint from command-line style values.
    /// - Parameters:
    ///   - url: an absolute http(s) URL.
    ///   - apiKey: sent as `x-api-key`.
    ///   - authorization: sent as `Authorization`, raw (AppSync wants no `Bearer ` prefix).
    ///   - signer: signs every request (IAM auth); it sets `Authorization`, replacing `authorization`.
    ///   - headerLines: extra `Name: value` lines; a name given twice (or `x-api-key`, `Authorization`) replaces the earlier one.
    public init(
        url: String, apiKey: String? = nil, authorization: String? = nil, signer: SigV4Signer? = nil,
        headerLines: [String] = [], timeout: Double = Defaults.timeout
    ) throws(EndpointError) {
        let parsed: EndpointURL
        do {
            parsed = try EndpointURL(parsing: url.trimmingSpaces)
        } catch {
            throw .invalidURL(EndpointURL.maskingUserInfo(url), error.description)
        }
        if let problem = parsed.httpProblem { throw .invalidURL(url, problem) }
        guard timeout.isFinite, timeout > 0 else { throw .invalidTimeout(timeout) }

        var headers: [HTTPHeader] = [
            HTTPHeader(name: "Content-Type", value: "application/json"),
            HTTPHeader(name: "Accept", value: "application/json"),
        ]
        if let apiKey { headers.set("x-api-key", apiKey) }
        if let authorization { headers.set("Authorization", authorization) }
        for line in headerLines {
            let header = try HTTPHeader.parse(line)
            headers.set(header.name, header.value)
        }
        self.init(url: parsed, headers: headers, timeout: timeout, signer: signer)
    }

    /// Makes an endpoint from checked parts.
    public init(
        url: EndpointURL, headers: [HTTPHeader], timeout: Double = Defaults.timeout,
        signer: SigV4Signer? = nil
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.signer = signer
    }

    /// A redactor that knows the value of every header that is not known to be harmless (the API key, a token, a
    /// custom header's value) and the signer's secret key and session token, for scrubbing messages.
    public var redactor: Redactor {
        Redactor(secrets: headers.filter { !HeaderRedaction.isHarmless($0.name) }.map(\.value) + (signer?.secrets ?? []))
    }

    /// The HTTP request that POSTs `body` here, signed for the moment `date` when the endpoint has a signer.
    public func httpRequest(body: [UInt8], at date: Timestamp) -> HTTPRequest {
        let request = unsignedRequest(body: body)
        return signer?.sign(request, at: date) ?? request
    }

    /// The HTTP request that POSTs `body` here, before signing (the client's ``SigningStep`` signs each attempt).
    public func unsignedRequest(body: [UInt8]) -> HTTPRequest {
        HTTPRequest(url: url, method: "POST", headers: headers, body: body, timeout: timeout, caFile: caFile, maxResponseBytes: maxResponseBytes)
    }
}

/// A problem with the endpoint settings; the message names the bad value (never a secret) and the fix.
public enum EndpointError: Error, Sendable, Equatable, ParameterizedMessage {
    /// The URL is unusable; the second value says why.
    case invalidURL(String, String)
    /// The timeout is not a positive number of seconds.
    case invalidTimeout(Double)
    /// A `--header` line is malformed.
    case malformedHeader(HeaderParseError)

    /// A one-line message for people, each parameter named by `name`.
    public func message(naming name: (Parameter) -> String) -> String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid endpoint URL '\(url)': \(reason); give an absolute URL such as https://example.com/graphql"
        case .invalidTimeout(let value):
            return "invalid timeout \(value): give a positive number of seconds, e.g. \(name(.timeout)) 30"
        case .malformedHeader(let error):
            return error.description
        }
    }
}

/// Why a `Name: value` header line was rejected.
public struct HeaderParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line as given, with its value masked (the name is shown, so that the user knows which `-H` it is).
    public let line: String
    /// What was wrong.
    public let reason: String

    /// A one-line message for people.
    public var description: String { "malformed header '\(line)': \(reason)" }
}

extension HTTPHeader {
    /// Parses a `Name: value` line (as given to `--header`).
    ///
    /// The name must be an HTTP token (letters, digits and ``!#$%&'*+-.^_`|~``); the value is trimmed and may be empty,
    /// but must not contain line breaks.
    public static func parse(_ line: String) throws(EndpointError) -> HTTPHeader {
        guard let colon = line.firstIndex(of: ":") else {
            throw .malformedHeader(HeaderParseError(line: maskedLine(line), reason: "expected 'Name: value', e.g. 'x-trace-id: 42'"))
        }
        let rawName = line[..<colon]
        let name = rawName.trimmingSpaces
        let value = line[line.index(after: colon)...].trimmingSpaces
        let shown = maskedLine(line)
        guard !name.isEmpty else {
            throw .malformedHeader(HeaderParseError(line: shown, reason: "the header name before ':' is empty"))
        }
        guard rawName.last != " " && rawName.last != "\t" else {
            throw .malformedHeader(HeaderParseError(line: shown, reason: "no space is allowed between the header name and ':'"))
        }
        if let bad = name.unicodeScalars.first(where: { !isTokenCharacter($0) }) {
            let what = bad == " " ? "a space" : "'\(bad.escaped(asASCII: true))'"
            throw .malformedHeader(HeaderParseError(line: shown, reason: "the header name '\(name)' contains \(what); names are letters, digits and -_."))
        }
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw .malformedHeader(HeaderParseError(line: shown, reason: "the value contains a line break or NUL"))
        }
        return HTTPHeader(name: name, value: value)
    }

    /// True for a character of an HTTP token (RFC 9110 `tchar`): header names, WebSocket subprotocols.
    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
        }
    }

    /// The line for an error message: the header's name as given, and its value masked whatever the name,
    /// since a malformed line may put a secret where its name should make it look harmless.
    private static func maskedLine(_ line: String) -> String {
        let mask = HeaderRedaction.mask
        if let colon = line.firstIndex(of: ":") {
            let value = line[line.index(after: colon)...].trimmingSpaces
            return "\(line[..<colon]):" + (value.isEmpty ? "" : " \(mask)")
        }
        // No colon: a first word with more after it is a name without its colon; one word may be a pasted secret.
        guard let gap = line.firstIndex(where: { $0 == " " || $0 == "\t" }), gap != line.startIndex else { return mask }
        return "\(line[..<gap]) \(mask)"
    }
}
