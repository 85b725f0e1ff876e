/// A `ws://` or `wss://` URL, split into what the upgrade request and the connection need.
///
/// ```swift
/// let url = try WebSocketURL("wss://api.example.com/graphql/realtime")
/// url.hostHeader   // "api.example.com"
/// url.target       // "/graphql/realtime"
/// ```
public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
    /// True for `wss://` (TLS).
    public let isSecure: Bool
    /// The host name or address, IPv6 without brackets.
    public let host: String
    /// The explicit port, or 80 (`ws`) / 443 (`wss`).
    public let port: Int
    /// The request target: path and query, at least `/`.
    public let target: String
    /// True when the URL named the port.
    private let hasExplicitPort: Bool

    /// Parses `text`; throws ``WebSocketError/invalidURL(_:reason:)`` saying what is wrong.
    public init(_ text: String) throws(WebSocketError) {
        func invalid(_ reason: String) -> WebSocketError { .invalidURL(text, reason: reason) }
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("ws://") {
            isSecure = false
            rest = text.dropFirst(5)
        } else if lowered.hasPrefix("wss://") {
            isSecure = true
            rest = text.dropFirst(6)
        } else {
            throw invalid("the scheme must be ws or wss, e.g. wss://example.com/graphql/realtime")
        }
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw invalid(bad == " " ? "it contains a space; percent-encode it as %20" : "it contains a control character")
        }
        if rest.contains("#") { throw invalid("a WebSocket URL cannot have a fragment (#…)") }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if authority.contains("@") { throw invalid("user names and passwords in the URL are not supported; send credentials in a header") }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("the IPv6 address has no closing ']'") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected '\(after)' after the IPv6 address") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw invalid("the URL has no host") }
        host = String(hostPart)
        if let portPart {
            guard let port = Int(portPart), (1...65535).contains(port), portPart.allSatisfy(\.isASCII) else {
                throw invalid("the port '\(portPart)' is not a number from 1 to 65535")
            }
            self.port = port
            hasExplicitPort = true
        } else {
            port = isSecure ? 443 : 80
            hasExplicitPort = false
        }
        let path = rest[authorityEnd...]
        target = path.hasPrefix("/") ? String(path) : "/" + path
    }

    /// The `Host` header value: the host (IPv6 in brackets) and the port when the URL gave one.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return hasExplicitPort ? "\(name):\(port)" : name
    }

    /// The same place as an `http://` or `https://` URL, which libcurl connects to.
    public var httpURL: String {
        (isSecure ? "https://" : "http://") + hostHeader + target
    }

    /// The URL as text.
    public var description: String {
        (isSecure ? "wss://" : "ws://") + hostHeader + target
    }
}
