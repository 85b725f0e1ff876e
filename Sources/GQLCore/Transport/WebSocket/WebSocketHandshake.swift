/// The opening handshake (RFC 6455 §4.1): the HTTP/1.1 upgrade request gqlc writes, and the check of the
/// server's answer.
///
/// ```swift
/// let handshake = try WebSocketHandshake(url: url, subprotocols: ["graphql-ws"], headers: [])
/// send(handshake.request)
/// // … read until ``WebSocketHandshake/Response/parse(_:)`` returns a response …
/// let protocol = try handshake.accept(response)
/// ```
public struct WebSocketHandshake: Sendable {
    /// The GUID that RFC 6455 appends to the key to compute `Sec-WebSocket-Accept`.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// Header names gqlc writes itself; a caller cannot set them.
    static let reservedHeaders: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "sec-websocket-extensions", "content-length", "transfer-encoding",
    ]

    /// Where the request goes.
    public let url: WebSocketURL
    /// The `Sec-WebSocket-Key`: 16 random bytes in base64.
    public let key: String
    /// The subprotocols offered, in order of preference.
    public let subprotocols: [String]
    /// The request bytes, ending with the blank line.
    public let request: [UInt8]

    /// Builds the request. Subprotocols must be HTTP tokens (base64url without padding is); `headers` go after
    /// the WebSocket ones and must not set those.
    public init(url: WebSocketURL, subprotocols: [String] = [], headers: [HTTPHeader] = [],
                key: String = WebSocketHandshake.randomKey()) throws(WebSocketError) {
        for name in subprotocols {
            if name.isEmpty || !name.unicodeScalars.allSatisfy(HTTPHeader.isTokenCharacter) {
                let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
                throw .invalidRequest("the subprotocol '\(shown.escapingLineBreaks)' is not an HTTP token "
                    + "(letters, digits and !#$%&'*+-.^_`|~)")
            }
        }
        var lines = [
            "GET \(url.target) HTTP/1.1",
            "Host: \(url.hostHeader)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        if !subprotocols.isEmpty { lines.append("Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))") }
        for header in headers {
            if Self.reservedHeaders.contains(header.name.lowercased()) {
                throw .invalidRequest("the header '\(header.name)' is set by the WebSocket handshake itself")
            }
            if header.name.isEmpty || !header.name.unicodeScalars.allSatisfy(HTTPHeader.isTokenCharacter) {
                throw .invalidRequest("the header name '\(header.name.escapingLineBreaks)' is not an HTTP token")
            }
            if header.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                throw .invalidRequest("the value of the header '\(header.name)' contains a line break or NUL")
            }
            lines.append("\(header.name): \(header.value)")
        }
        self.url = url
        self.key = key
        self.subprotocols = subprotocols
        request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// 16 random bytes from the system's secure generator, in base64 (24 characters).
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let word = generator.next() as UInt64
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Base64.encode(bytes)
    }

    /// The `Sec-WebSocket-Accept` a server must answer to `key`: base64(SHA-1(key + GUID)).
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash(key + guid))
    }

    /// Checks a 101 response against the request; returns the subprotocol the server chose, if any.
    /// A status other than 101 is left to the caller, which may want the body for its error.
    public func accept(_ response: Response) throws(WebSocketError) -> String? {
        guard response.status == 101 else {
            throw .upgradeRefused(status: response.status, reason: response.reason, body: "")
        }
        guard let upgrade = response.value(for: "upgrade"), upgrade.lowercased() == "websocket" else {
            throw .badHandshake("the Upgrade header is '\(response.value(for: "upgrade") ?? "")', not 'websocket'")
        }
        let connection = response.value(for: "connection") ?? ""
        guard connection.split(separator: ",").contains(where: { $0.trimmed.lowercased() == "upgrade" }) else {
            throw .badHandshake("the Connection header '\(connection)' does not contain 'Upgrade'")
        }
        let expected = Self.acceptValue(forKey: key)
        guard let accept = response.value(for: "sec-websocket-accept") else {
            throw .badHandshake("there is no Sec-WebSocket-Accept header")
        }
        guard accept == expected else {
            throw .badHandshake("Sec-WebSocket-Accept is '\(accept)', expected '\(expected)' for the key sent")
        }
        if let extensions = response.value(for: "sec-websocket-extensions"), !extensions.trimmed.isEmpty {
            throw .badHandshake("the server chose the extension '\(extensions)', which was not offered")
        }
        guard let chosen = response.value(for: "sec-websocket-protocol")?.trimmed, !chosen.isEmpty else { return nil }
        guard subprotocols.contains(chosen) else {
            let offered = subprotocols.filter { !$0.hasPrefix("header-") }
            throw .badHandshake("the server chose the subprotocol '\(chosen)', which was not offered"
                + (offered.isEmpty ? "" : " (offered: \(offered.joined(separator: ", ")))"))
        }
        return chosen
    }

    /// The status line and headers of the server's answer.
    public struct Response: Sendable, Equatable {
        /// The status code, e.g. 101.
        public var status: Int
        /// The reason phrase, e.g. `Switching Protocols`.
        public var reason: String
        /// Header names lowercased, in order; a name may repeat.
        public var headers: [(name: String, value: String)]
        /// The bytes the status line and headers took, blank line included; what follows is frame data.
        public var length: Int

        /// The values of `name` (lowercase) joined with ", ", or nil.
        public func value(for name: String) -> String? {
            let values = headers.filter { $0.name == name }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }

        /// The largest head accepted, so a server cannot make gqlc buffer without end.
        public static let maxLength = 64 * 1024

        /// Parses the head at the start of `bytes`, or returns nil when its blank line has not arrived yet.
        public static func parse(_ bytes: [UInt8]) throws(WebSocketError) -> Response? {
            guard let end = headEnd(bytes) else {
                if bytes.count > maxLength { throw .badHandshake("the response head is longer than \(maxLength) bytes") }
                return nil
            }
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
            while lines.last?.isEmpty == true { lines.removeLast() }
            guard let statusLine = lines.first else { throw .badHandshake("the response is empty") }
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status) else {
                throw .badHandshake("the status line '\(String(statusLine.prefix(80)).escapingLineBreaks)' is not HTTP/1.x")
            }
            var headers: [(name: String, value: String)] = []
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else {
                    throw .badHandshake("the header line '\(String(line.prefix(80)).escapingLineBreaks)' has no ':'")
                }
                headers.append((line[..<colon].trimmed.lowercased(), line[line.index(after: colon)...].trimmed))
            }
            let reason = parts.count > 2 ? String(parts[2]) : ""
            return Response(status: status, reason: reason, headers: headers, length: end)
        }

        /// The index just past the `\r\n\r\n` that ends the head.
        private static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 3..<bytes.count where bytes[index] == 0x0A && bytes[index - 1] == 0x0D
                && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
                return index + 1
            }
            return nil
        }

        /// Same status line, headers (in order) and length.
        public static func == (lhs: Response, rhs: Response) -> Bool {
            lhs.status == rhs.status && lhs.reason == rhs.reason && lhs.length == rhs.length
                && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmed: String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
