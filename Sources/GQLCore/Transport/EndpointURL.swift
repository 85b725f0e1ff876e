/// An absolute URL split into the parts gqlc uses: `scheme://host:port/path?query`, parsed by RFC 3986's
/// rules for those parts. Credentials in the URL (`user:pass@`) are refused rather than sent or dropped
/// silently; a `#fragment` is kept in the text but never sent.
///
/// ```swift
/// let url = try EndpointURL(parsing: "https://[::1]:8443/graphql?x=1")
/// url.host          // "::1"
/// url.hostForHeader // "[::1]:8443"
/// ```
public struct EndpointURL: Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public let absoluteString: String
    /// The scheme, lowercased: `https`.
    public let scheme: String
    /// The host as written, without the brackets of an IPv6 literal: `example.com`, `::1`.
    public let host: String
    /// The port when one is written.
    public let port: Int?
    /// The path as written (percent-encoded), possibly empty.
    public let path: String
    /// The query after `?`, as written (percent-encoded); nil without `?`.
    public let query: String?

    /// Parses an absolute URL; the error says what is wrong with it.
    public init(parsing text: String) throws(URLParseError) {
        absoluteString = text
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
            // Control characters are shown escaped so that the message stays one line; others as they are.
            throw bad == " " ? .space : .invalidCharacter(bad.value >= 0xA0 ? String(bad) : bad.escaped(asASCII: true))
        }
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
            text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
            text.first?.isLetter == true
        else { throw .noScheme }
        scheme = text[..<colon].lowercased()
        let afterScheme = text[text.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { throw .noAuthority }
        let rest = afterScheme.dropFirst(2)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@") else { throw .userInfo }
        (host, port) = try Self.hostAndPort(authority)
        let afterAuthority = rest[authorityEnd...]
        let withoutFragment = afterAuthority.prefix { $0 != "#" }
        if let question = withoutFragment.firstIndex(of: "?") {
            path = String(withoutFragment[..<question])
            query = String(withoutFragment[withoutFragment.index(after: question)...])
        } else {
            path = String(withoutFragment)
            query = nil
        }
        if let bad = (path + (query ?? "")).first(where: { "[]{}|\\^`\"<>".contains($0) }) {
            throw .invalidCharacter(String(bad))
        }
        try Self.checkPercentEscapes(path + "?" + (query ?? ""))
    }

    /// Parses `text`, or nil when it is not an absolute URL.
    public init?(string text: String) {
        guard let url = try? EndpointURL(parsing: text) else { return nil }
        self = url
    }

    /// The `Host` header's value: the host (IPv6 in brackets) and the port unless it is the scheme's default.
    public var hostForHeader: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        guard let port, port != Self.defaultPort(scheme) else { return shown }
        return "\(shown):\(port)"
    }

    /// The text as given.
    public var description: String { absoluteString }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    private static func hostAndPort(_ authority: Substring) throws(URLParseError) -> (String, Int?) {
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidIPv6(String(authority)) }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw .invalidIPv6(String(authority)) }
            portText = after.isEmpty ? nil : after.dropFirst()
            let hexOrDots = host.prefix { $0 != "%" }
            guard hexOrDots.contains(":"), hexOrDots.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw .invalidIPv6(String(host))
            }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
                portText = nil
            }
            if let bad = host.first(where: { !($0.isLetter || $0.isNumber || "-._~%!$&'()*+,;=".contains($0)) }) {
                throw .invalidHostCharacter(String(bad))
            }
        }
        // An empty host is kept for `file:///path`; sending refuses it (``HTTPRequest/validate(_:)``).
        guard !host.isEmpty || portText == nil else { throw .noHost }
        guard let portText, !portText.isEmpty else { return (String(host), nil) }
        guard portText.allSatisfy(\.isASCIIDigitCharacter), let port = Int(portText), (1...65535).contains(port) else {
            throw .invalidPort(String(portText))
        }
        return (String(host), port)
    }

    private static func checkPercentEscapes(_ text: String) throws(URLParseError) {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, Hex.value(bytes[index + 1]) != nil, Hex.value(bytes[index + 2]) != nil else {
                    throw .invalidPercentEscape
                }
                index += 3
            } else {
                index += 1
            }
        }
    }

    /// `text` with anything between `//` and an `@` before the path masked (`https://***@host/`), for
    /// messages about a URL that may carry a password.
    public static func maskingUserInfo(_ text: String) -> String {
        guard let slashes = text.firstRange(of: "//") else { return text }
        let authority = text[slashes.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return text }
        return String(text[..<slashes.upperBound]) + "***" + String(text[at...])
    }

    /// `text` with each `%XX` replaced by its byte; invalid escapes and bytes that are not UTF-8 are kept as text.
    public static func percentDecoded(_ text: some StringProtocol) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = Hex.value(bytes[index + 1]), let low = Hex.value(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(validating: result, as: UTF8.self) ?? String(text)
    }
}

/// Why a URL could not be parsed; each message is one line that says what to fix.
public enum URLParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `scheme:` at the start.
    case noScheme
    /// No `//` after the scheme.
    case noAuthority
    /// Nothing between `//` and the path.
    case noHost
    /// `user:password@` before the host.
    case userInfo
    /// A port that is not a number from 1 to 65535.
    case invalidPort(String)
    /// A bracketed host that is not an IPv6 address.
    case invalidIPv6(String)
    /// A character a host name cannot hold.
    case invalidHostCharacter(String)
    /// A space somewhere.
    case space
    /// A control, non-ASCII or otherwise unsafe character.
    case invalidCharacter(String)
    /// A `%` not followed by two hex digits.
    case invalidPercentEscape

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .noScheme: return "it has no scheme such as https://"
        case .noAuthority: return "expected '//' and a host after the scheme"
        case .noHost: return "the URL has no host"
        case .userInfo: return "credentials in the URL (user@ or user:password@) are not supported; send them in a header"
        case .invalidPort(let port): return "the port '\(port)' is not a number from 1 to 65535"
        case .invalidIPv6(let host): return "'\(host)' is not an IPv6 address in brackets, such as [::1]"
        case .invalidHostCharacter(let character): return "the host contains '\(character)'"
        case .space: return "it contains a space; write it as %20"
        case .invalidCharacter(let character): return "it contains '\(character)'; percent-encode it"
        case .invalidPercentEscape: return "a '%' is not followed by two hex digits"
        }
    }
}
