/// One HTTP header line: a name and its value. Names compare case-insensitively.
public struct HTTPHeader: Sendable, Equatable {
    /// The header name as given (e.g. `x-api-key`).
    public var name: String
    /// The header value, without surrounding whitespace.
    public var value: String

    /// Makes a value from its parts.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// True when `other` names the same header, ignoring case.
    public func hasName(_ other: String) -> Bool {
        name.utf8.elementsEqual(other.utf8) { Self.asciiLowercase($0) == Self.asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

extension Array where Element == HTTPHeader {
    /// The value of the first header called `name` (any case), or nil.
    public func value(for name: String) -> String? {
        first(where: { $0.hasName(name) })?.value
    }

    /// Sets `name` to `value`: replaces every header of that name (any case) with one at the first one's place,
    /// or appends it.
    public mutating func set(_ name: String, _ value: String) {
        let header = HTTPHeader(name: name, value: value)
        if let index = firstIndex(where: { $0.hasName(name) }) {
            self[index] = header
            var seen = false
            removeAll { candidate in
                guard candidate.hasName(name) else { return false }
                defer { seen = true }
                return seen
            }
        } else {
            append(header)
        }
    }
}

/// An HTTP request as the transport sends it.
public struct HTTPRequest: Sendable, Equatable {
    /// The endpoint URL.
    public var url: EndpointURL
    /// The method; gqlc only POSTs.
    public var method: String
    /// Headers in the order they are sent.
    public var headers: [HTTPHeader]
    /// The body bytes (UTF-8 JSON for GraphQL).
    public var body: [UInt8]
    /// The most time, in seconds, the whole exchange may take.
    public var timeout: Double
    /// A file of PEM CA certificates to verify the server's TLS certificate with, instead of the system's; nil for
    /// the system's.
    public var caFile: String?
    /// The most bytes the response body may hold once decoded; a larger one ends the transfer with
    /// ``TransportError/responseTooLarge(limit:received:)``.
    public var maxResponseBytes: Int
    /// Whether the transport may send the request again by itself when a kept-alive connection closes without an
    /// answer (true for queries). False for a mutation: the first sending may have been carried out.
    public var mayResend = true

    /// Makes a value from its parts.
    public init(
        url: EndpointURL, method: String = "POST", headers: [HTTPHeader], body: [UInt8], timeout: Double, caFile: String? = nil,
        maxResponseBytes: Int = Defaults.maxResponseMiB << 20
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.caFile = caFile
        self.maxResponseBytes = maxResponseBytes
    }
}

extension EndpointURL {
    /// Why this URL cannot be requested over HTTP, or nil when it is an absolute http(s) URL with a host.
    /// The one check of endpoint URLs: settings, endpoints and the transport all ask it.
    public var httpProblem: String? {
        guard scheme == "http" || scheme == "https" else { return "the scheme must be http or https" }
        guard !host.isEmpty else { return "the URL has no host" }
        return nil
    }
}

extension HTTPRequest {
    /// Checks that the URL is an absolute http(s) URL with a host (see ``EndpointURL/httpProblem``).
    public static func validate(_ url: EndpointURL) throws(TransportError) {
        if let problem = url.httpProblem { throw .invalidURL(url.absoluteString, detail: problem) }
    }
}

/// An HTTP response: status, headers and the complete body.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The response headers.
    public var headers: [HTTPHeader]
    /// The body bytes.
    public var body: [UInt8]

    /// Makes a value from its parts.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Convenience for tests and fakes: a body given as text.
    public init(status: Int, headers: [HTTPHeader] = [], text: String) {
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }

    /// True for 2xx statuses.
    public var isSuccess: Bool { (200...299).contains(status) }
}

/// Why a request got no HTTP response at all.
public enum TransportError: Error, Sendable, Equatable, ParameterizedMessage {
    /// The URL cannot be sent to (wrong scheme, no host); `detail` says why.
    case invalidURL(String, detail: String)
    /// Connection refused, DNS failure, reset, proxy failure…; `detail` is libcurl's message.
    case network(String)
    /// The TLS connection cannot be trusted: the server's certificate failed verification, or the CA file is
    /// unusable; `detail` names the problem (`SSL certificate problem: self-signed certificate`). Not retried.
    case tls(String)
    /// Nothing to send with: libcurl could not be loaded; `detail` says what was tried.
    case unavailable(String)
    /// No complete response arrived within `seconds`.
    case timeout(seconds: Double)
    /// The request was cancelled (Ctrl-C).
    case cancelled
    /// The decoded body passed `limit` bytes (`received` had arrived when the transfer was stopped). Not retried.
    case responseTooLarge(limit: Int, received: Int)
    /// The response cannot be read and will not be different next time: a body that is not the gzip it claims to
    /// be, headers too large for libcurl; `detail` is libcurl's message. Not retried.
    case badResponse(String)

    /// A one-line message for people, each parameter named by `name`.
    public func message(naming name: (Parameter) -> String) -> String {
        switch self {
        case .invalidURL(let url, let detail): return "invalid endpoint URL '\(url)': \(detail)"
        case .network(let detail): return "network error: \(detail)"
        case .tls(let detail): return "TLS error: \(detail)"
        case .unavailable(let detail): return detail
        case .timeout(let seconds): return "no response within \(formatSeconds(seconds)); raise it with \(name(.timeout)) SECONDS"
        case .cancelled: return "request cancelled"
        case .responseTooLarge(let limit, let received):
            return "the response is larger than \(formatBytes(limit)) (gqlc stopped the transfer once \(received) bytes had arrived, decoded); "
                + "raise the limit with \(name(.maxResponseSize)) if it is expected"
        case .badResponse(let detail): return "unreadable response: \(detail)"
        }
    }
}

/// Sends one HTTP request and waits for the whole response.
///
/// Implementations block the calling thread. They must return `.cancelled` promptly once `cancellation` is set.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once (no retries) and returns the response, whatever its status.
    func send(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse
}

/// Formats a size for messages: `256 MiB`, `1.5 MiB`, `812 bytes`.
func formatBytes(_ bytes: Int) -> String {
    if bytes >= 1 << 20 {
        let mib = Double(bytes) / Double(1 << 20)
        return (mib == mib.rounded() ? String(Int(mib)) : formatC("%.1f", mib)) + " MiB"
    }
    return bytes >= 1 << 10 ? formatC("%.1f", Double(bytes) / 1024) + " KiB" : "\(bytes) bytes"
}

/// Formats a duration for messages: `30 s`, `0.25 s`.
func formatSeconds(_ seconds: Double) -> String {
    if seconds == seconds.rounded() && abs(seconds) < 1e9 { return "\(Int(seconds)) s" }
    return formatC("%.3g", seconds) + " s"
}
