/// Turns an HTTP response into a ``GraphQLResponse`` or a typed failure.
///
/// - non-2xx: ``HTTPStatusError``, with AppSync's `errors[0].errorType`/`message` when the body is JSON,
///   or a one-line excerpt when it is HTML or text;
/// - 2xx whose body is not JSON, or JSON that is not a GraphQL response: ``InvalidResponseError``;
/// - otherwise the decoded response (which may still carry GraphQL errors).
public enum ResponseClassifier {
    /// Classifies `response`. The JSON parser limits nesting, so hostile bodies fail cleanly.
    public static func classify(_ response: HTTPResponse) throws(ExecutionError) -> GraphQLResponse {
        guard response.isSuccess else { throw .httpStatus(statusError(response)) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(response.body)
        } catch {
            throw .invalidResponse(.notJSON(status: response.status, error, excerpt: BodyExcerpt.make(response.body)))
        }
        do {
            return try GraphQLResponse(json: json)
        } catch {
            throw .invalidResponse(error)
        }
    }

    /// The error for a non-2xx response.
    static func statusError(_ response: HTTPResponse) -> HTTPStatusError {
        var error = HTTPStatusError(status: response.status)
        if let retryAfter = response.headers.value(for: "Retry-After") { error.retryAfter = retryAfter }
        if (300..<400).contains(response.status) { error.location = response.headers.value(for: "Location") }
        if let json = try? JSONValue.parse(response.body), case .object(let object) = json {
            // AppSync: {"errors":[{"errorType":"UnauthorizedException","message":"…"}]};
            // other AWS front doors: {"message":"Forbidden"} or {"__type":"…","message":"…"}.
            var first: JSONObject = object
            if let list = object["errors"]?.arrayValue, let entry = list.first?.objectValue {
                first = entry
            } else if let entry = object["errors"]?.objectValue {
                first = entry
            }
            error.errorType = first["errorType"]?.stringValue ?? first["__type"]?.stringValue
                ?? first["extensions"]?["code"]?.stringValue
            error.message = first["message"]?.stringValue.map { $0.oneLine(lineBreaks: .collapsed, cut: .end(300)) }
            if error.errorType == nil, error.message == nil { error.excerpt = BodyExcerpt.make(response.body) }
        } else {
            error.excerpt = BodyExcerpt.make(response.body)
        }
        if error.errorType == nil, let headerType = response.headers.value(for: "x-amzn-ErrorType"), !headerType.isEmpty {
            // "UnauthorizedException:http://internal.amazon.com/…" — keep the name only.
            error.errorType = String(headerType.prefix(while: { $0 != ":" }))
        }
        return error
    }
}

/// A non-2xx HTTP response.
public struct HTTPStatusError: Error, Sendable, Equatable, ParameterizedMessage {
    /// The status code.
    public var status: Int
    /// The error type from the JSON body (`UnauthorizedException`) or the `x-amzn-ErrorType` header.
    public var errorType: String?
    /// The message from the JSON body.
    public var message: String?
    /// A short excerpt of a non-JSON body (an HTML page's title or first line).
    public var excerpt: String?
    /// The `Retry-After` header, if sent.
    public var retryAfter: String?
    /// The `Location` of a 3xx answer: where the server points (gqlc follows no redirect).
    public var location: String?
    /// How many attempts were made before giving up.
    public var attempts: Int
    /// How the request was authorized, which chooses the hint for 401 and 403.
    public var authorization: RequestAuthorization = .keyOrToken

    /// Makes a value from its parts.
    public init(status: Int, errorType: String? = nil, message: String? = nil, excerpt: String? = nil, retryAfter: String? = nil, attempts: Int = 1) {
        self.status = status
        self.errorType = errorType
        self.message = message
        self.excerpt = excerpt
        self.retryAfter = retryAfter
        self.attempts = attempts
    }

    /// A one-line message for people, each parameter named by `name`.
    public func message(naming name: (Parameter) -> String) -> String { message(naming: name, remedy: \.label) }

    /// The message with parameters named by `name` and the remedy (signing in again) said by `remedy`.
    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String {
        line(naming: name, remedy: remedy).escapingLineBreaks
    }

    private func line(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String {
        var line = "HTTP \(status)"
        if let reason = Self.reasonPhrases[status] { line += " \(reason)" }
        switch (errorType, message) {
        case let (type?, message?): line += ": \(type): \(message)"
        case let (type?, nil): line += ": \(type)"
        case let (nil, message?): line += ": \(message)"
        case (nil, nil):
            // Skip an excerpt that only repeats the status line ("502 Bad Gateway").
            if let excerpt, !line.hasSuffix(excerpt) { line += ": \(excerpt)" }
        }
        if attempts > 1 { line += " (after \(attempts) attempts)" }
        if let hint = hint(naming: name, remedy: remedy) { line += "; \(hint)" }
        return line
    }

    /// A suggestion for the common cases.
    private func hint(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String? {
        switch status {
        // A `where` binds to the last pattern only, so each status carries its own.
        case 401, 403:
            switch authorization {
            case .iam(let source):
                let credentials = source.map { "the AWS credentials (from \($0))" }
                    ?? "the AWS credentials (\(name(.profile)), AWS_ACCESS_KEY_ID)"
                return "check \(credentials), the region (\(name(.region))) and the system clock, and that the API allows IAM auth"
            case .userPool:
                return RequestAuthorization.userPoolRefusedHint(remedy: remedy)
            case .keyOrToken:
                return "check the API key or token (\(name(.apiKey)), \(name(.authToken))) and the API's auth mode"
            }
        case 300..<400:
            guard let location, !location.isEmpty else { return "a redirect without a Location; gqlc follows no redirects" }
            return "the server redirects to \(location.oneLine(cut: .end(200))); gqlc follows no redirects: "
                + "if you trust that address, make it the endpoint"
        case 404: return "check the endpoint URL"
        case 413: return "the request is too large"
        case 429: return "the API is throttling requests; retry later or raise \(name(.retries))"
        default: return nil
        }
    }

    private static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 413: "Payload Too Large", 415: "Unsupported Media Type", 429: "Too Many Requests",
        500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]
}

/// How a request was authorized, as far as an error's hint needs to know.
public enum RequestAuthorization: Sendable, Equatable {
    /// An API key, a token the user gave, or nothing.
    case keyOrToken
    /// The stored user-pool sign-in's token.
    case userPool
    /// SigV4-signed, with credentials from `source` (as the credential chain names it) when known.
    case iam(source: String?)

    /// What to do when the stored user-pool sign-in is refused even after a refresh.
    public static func userPoolRefusedHint(remedy: (Remedy) -> String) -> String {
        "the user-pool sign-in was not accepted; \(remedy(.signInAgain)), and check that the API allows user-pool auth"
    }
}

/// A 2xx response that is not a GraphQL response.
public enum InvalidResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is not JSON; carries the parse error (with its line:column) and an excerpt.
    case notJSON(status: Int, JSONParseError, excerpt: String)
    /// The body is JSON but not a GraphQL response; says what is wrong.
    case notGraphQL(String)
    /// The response lacks the expected result (e.g. `data.getPost`).
    case missingResult(DecodePathError)
    /// A list page is malformed (e.g. `items` is not a list).
    case malformedPage(String)
    /// The server returned a `nextToken` it had already returned, which would loop forever.
    case repeatedToken(String)
    /// The response is well-formed GraphQL, but its data has another shape than the schema's (a list where a
    /// record should be); says where and what.
    case notAsPromised(String)
    /// This many pages in a row held no items, each with a new `nextToken`: perhaps an endless listing.
    case endlessEmptyPages(Int)

    /// A one-line message for people.
    public var description: String { message.escapingLineBreaks }

    private var message: String {
        switch self {
        case .notJSON(let status, let error, let excerpt):
            return "the server answered HTTP \(status) with a body that is not JSON (at \(error.line):\(error.column): \(error.message)): \(excerpt)"
        case .notGraphQL(let detail): return "the response is not a GraphQL response: \(detail)"
        case .missingResult(let error): return "unexpected response: \(error.description)"
        case .malformedPage(let detail): return "unexpected list page: \(detail)"
        case .repeatedToken(let token):
            return "the server returned nextToken '\(token.oneLine(lineBreaks: .collapsed, cut: .end(40)))' a second time; stopping to avoid an endless loop"
        case .notAsPromised(let detail): return "the response is not what the schema promises: \(detail)"
        case .endlessEmptyPages(let count):
            return "\(count) pages in a row held no items, each with a new nextToken; stopping rather than page on without end"
        }
    }
}

/// Short, single-line excerpts of bodies for error messages.
public enum BodyExcerpt {
    /// The longest excerpt, in characters.
    public static let maximumLength = 100

    /// A one-line excerpt: an HTML page's `<title>` or first line of text, else the first non-empty line;
    /// `(empty body)` when there is nothing to show.
    public static func make(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        let trimmed = text.trimmingWhitespace
        if trimmed.hasPrefix("<") {
            if let title = htmlTitle(trimmed), !title.isEmpty { return title.oneLine(lineBreaks: .collapsed, cut: .end(maximumLength)) }
            let withoutTags = trimmed.replacing(#/<[^>]*>/#, with: "\n")
            if let line = firstLine(withoutTags) { return line.oneLine(lineBreaks: .collapsed, cut: .end(maximumLength)) }
        }
        return firstLine(trimmed).map { $0.oneLine(lineBreaks: .collapsed, cut: .end(maximumLength)) } ?? "(empty body)"
    }

    private static func firstLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).lazy.map(\.trimmingSpaces).first { !$0.isEmpty }
    }

    private static func htmlTitle(_ html: String) -> String? {
        let title = #/<title[^>]*>(.*?)</title>/#.ignoresCase().dotMatchesNewlines()
        guard let match = html.firstMatch(of: title) else { return nil }
        return match.output.1.trimmingWhitespace
    }
}
