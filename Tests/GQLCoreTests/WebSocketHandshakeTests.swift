import Testing
@testable import GQLCore

/// The opening handshake (RFC 6455 §1.3, §4.1) and ws:// URLs. The accept value is §1.3's own example.
@Suite struct WebSocketHandshakeTests {
    private static let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="

    private func response(_ lines: [String], then extra: [UInt8] = []) throws -> WebSocketHandshake.Response {
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + extra
        return try #require(try WebSocketHandshake.Response.parse(bytes))
    }

    private func switching(accept: String = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", extra: [String] = []) throws -> WebSocketHandshake.Response {
        try response(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
                      "Sec-WebSocket-Accept: \(accept)"] + extra)
    }

    private func handshake(_ subprotocols: [String] = ["chat", "superchat"]) throws -> WebSocketHandshake {
        try WebSocketHandshake(url: WebSocketURL("ws://server.example.com/chat"), subprotocols: subprotocols, key: Self.rfcKey)
    }

    @Test func acceptValueOfTheRFCExample() {
        #expect(WebSocketHandshake.acceptValue(forKey: Self.rfcKey) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    /// The request of RFC 6455 §1.2, less its Origin (a browser's header).
    @Test func requestOfTheRFCExample() throws {
        let expected = "GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: chat, superchat\r\n\r\n"
        #expect(String(decoding: try handshake().request, as: UTF8.self) == expected)
    }

    @Test func extraHeadersAndAppSyncProtocols() throws {
        let header = Base64.encode(Array("{\"host\":\"x\"}".utf8), alphabet: .url, padded: false)
        let handshake = try WebSocketHandshake(url: WebSocketURL("wss://h.example:8443/graphql/realtime?a=1"),
                                               subprotocols: ["graphql-ws", "header-\(header)"],
                                               headers: [HTTPHeader(name: "x-trace", value: "7")], key: Self.rfcKey)
        let text = String(decoding: handshake.request, as: UTF8.self)
        #expect(text.hasPrefix("GET /graphql/realtime?a=1 HTTP/1.1\r\nHost: h.example:8443\r\n"))
        #expect(text.contains("\r\nSec-WebSocket-Protocol: graphql-ws, header-eyJob3N0IjoieCJ9\r\n"))
        #expect(text.hasSuffix("\r\nx-trace: 7\r\n\r\n"))
    }

    @Test func refusesUnsafeRequests() throws {
        let url = try WebSocketURL("ws://h/")
        #expect(throws: WebSocketError.self) { try WebSocketHandshake(url: url, subprotocols: ["a b"]) }
        #expect(throws: WebSocketError.self) { try WebSocketHandshake(url: url, subprotocols: ["header-abc="]) }
        #expect(throws: WebSocketError.self) { try WebSocketHandshake(url: url, subprotocols: [""]) }
        #expect(throws: WebSocketError.self) {
            try WebSocketHandshake(url: url, headers: [HTTPHeader(name: "x", value: "a\r\nHost: evil")])
        }
        #expect(throws: WebSocketError.self) { try WebSocketHandshake(url: url, headers: [HTTPHeader(name: "Host", value: "b")]) }
        #expect(throws: WebSocketError.self) { try WebSocketHandshake(url: url, headers: [HTTPHeader(name: "a:b", value: "c")]) }
    }

    @Test func randomKeysAre16BytesOfBase64() {
        let keys = Set((0..<8).map { _ in WebSocketHandshake.randomKey() })
        #expect(keys.count == 8)
        #expect(keys.allSatisfy { $0.count == 24 && $0.hasSuffix("==") })
    }

    @Test func acceptsTheRFCResponse() throws {
        #expect(try handshake().accept(try switching(extra: ["Sec-WebSocket-Protocol: chat"])) == "chat")
        #expect(try handshake().accept(try switching()) == nil)
        // Header names and the Upgrade/Connection tokens are case-insensitive; Connection may list several.
        let loose = try response(["HTTP/1.1 101 OK", "upgrade: WebSocket", "CONNECTION: keep-alive, upgrade",
                                  "sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="])
        #expect(try handshake().accept(loose) == nil)
    }

    /// Bytes after the blank line are frame data and are not part of the head.
    @Test func headLengthLeavesFrameBytes() throws {
        let head = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".utf8)
        let parsed = try #require(try WebSocketHandshake.Response.parse(head + [0x81, 0x00]))
        #expect(parsed.length == head.count)
        #expect(parsed.status == 101 && parsed.reason == "Switching Protocols")
        #expect(parsed.headers.map(\.name) == ["upgrade"])
        #expect(try WebSocketHandshake.Response.parse(Array("HTTP/1.1 101 Switching\r\nUpgrade: websocket\r\n\r".utf8)) == nil)
    }

    @Test func rejectsBadResponses() throws {
        let handshake = try handshake()
        #expect(throws: WebSocketError.badHandshake("Sec-WebSocket-Accept is 'AAAA', expected 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=' for the key sent")) {
            try handshake.accept(try switching(accept: "AAAA"))
        }
        #expect(throws: WebSocketError.upgradeRefused(status: 403, reason: "Forbidden", body: "")) {
            try handshake.accept(try response(["HTTP/1.1 403 Forbidden", "Content-Length: 0"]))
        }
        #expect(throws: WebSocketError.self) { try handshake.accept(try switching(extra: ["Sec-WebSocket-Protocol: other"])) }
        #expect(throws: WebSocketError.self) { try handshake.accept(try switching(extra: ["Sec-WebSocket-Extensions: permessage-deflate"])) }
        #expect(throws: WebSocketError.self) {
            try handshake.accept(try response(["HTTP/1.1 101 Switching Protocols", "Upgrade: h2c", "Connection: Upgrade",
                                               "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]))
        }
        #expect(throws: WebSocketError.self) { try handshake.accept(try response(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket"])) }
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.Response.parse(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }
        #expect(throws: WebSocketError.self) {
            try WebSocketHandshake.Response.parse([UInt8](repeating: 0x41, count: WebSocketHandshake.Response.maxLength + 1))
        }
    }

    @Test func parsesURLs() throws {
        let plain = try WebSocketURL("ws://localhost:20002/graphql/realtime")
        #expect(!plain.isSecure && plain.host == "localhost" && plain.port == 20002 && plain.target == "/graphql/realtime")
        #expect(plain.httpURL == "http://localhost:20002/graphql/realtime")
        let secure = try WebSocketURL("WSS://abc.appsync-realtime-api.eu-west-1.amazonaws.com/graphql")
        #expect(secure.isSecure && secure.port == 443 && secure.hostHeader == "abc.appsync-realtime-api.eu-west-1.amazonaws.com")
        #expect(try WebSocketURL("ws://h").target == "/")
        #expect(try WebSocketURL("ws://h?x=1").target == "/?x=1")
        let v6 = try WebSocketURL("ws://[::1]:9000/p")
        #expect(v6.host == "::1" && v6.port == 9000 && v6.hostHeader == "[::1]:9000")
        #expect(try WebSocketURL("wss://[::1]/").hostHeader == "[::1]")
    }

    @Test(arguments: ["http://h/", "ws://", "ws://:80/", "ws://h:0/", "ws://h:70000/", "ws://h:x/", "ws://u:p@h/",
                      "ws://h/#frag", "ws://h/a b", "ws://[::1/"])
    func rejectsBadURLs(text: String) {
        #expect(throws: WebSocketError.self) { try WebSocketURL(text) }
    }
}
