import Foundation
import Testing
@testable import GQLCore

/// A skipped suite is one line in a long log: without the venv, this says so in the run's summary too (a known
/// issue, so `swift test` still passes), and names the fix. `make test` makes the venv before it runs.
@Test func webSocketSuitesRunOrSayWhyNot() {
    guard let reason = WebSocketTestServer.unavailableReason else { return }
    withKnownIssue("the WebSocket suites need the test virtualenv") {
        Issue.record("""
            WebSocketConnectionTests SKIPPED: \(reason); run make venv (make test does), then swift test again
            """)
    }
}

/// The WebSocket client over libcurl against a real server: Python's `websockets` (DevServers/WebSocketServer).
/// Receives wait at most 60 s, so a broken client fails instead of hanging; no test asserts on speed.
@Suite(.enabled(if: WebSocketTestServer.isAvailable, "needs the test virtualenv with websockets and trustme: make venv"))
struct WebSocketConnectionTests {
    private func connect(_ server: WebSocketTestServer, _ path: String, subprotocols: [String] = [],
                         headers: [HTTPHeader] = [], cancellation: CancellationFlag? = nil) throws -> WebSocketConnection {
        try WebSocketConnection.connect(url: server.url(path), subprotocols: subprotocols, headers: headers, timeout: 30,
                                        cancellation: cancellation)
    }

    @Test func echoesTextAndBinary() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/echo")
        try socket.send(text: "héllo")
        #expect(try socket.receive(timeout: 60) == .text("héllo"))
        try socket.send(binary: [0, 1, 2, 255])
        #expect(try socket.receive(timeout: 60) == .binary([0, 1, 2, 255]))
        try socket.send(text: "")
        #expect(try socket.receive(timeout: 60) == .text(""))
        try socket.close()
    }

    /// 70 KB each way: a 64-bit length in both directions, and a message that spans many reads.
    @Test func seventyKilobyteMessages() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/echo")
        let text = String((0..<70_000).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
        try socket.send(text: text)
        #expect(try socket.receive(timeout: 60) == .text(text))
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try socket.send(binary: bytes)
        #expect(try socket.receive(timeout: 60) == .binary(bytes))
        try socket.close()
    }

    /// The server sees the subprotocols (AppSync's `graphql-ws` plus a `header-…` one), extra headers and target.
    @Test func handshakeCarriesProtocolsAndHeaders() throws {
        let server = try WebSocketTestServer()
        let auth = "header-" + Base64.encode(Array(#"{"host":"example.com","x-api-key":"da2-x"}"#.utf8), alphabet: .url, padded: false)
        let socket = try connect(server, "/headers?x=1", subprotocols: ["graphql-ws", auth],
                                 headers: [HTTPHeader(name: "x-trace", value: "42")])
        #expect(socket.subprotocol == "graphql-ws")
        guard case .text(let json)? = try socket.receive(timeout: 60) else {
            Issue.record("expected a text message")
            return
        }
        let report = try JSONValue.parse(Array(json.utf8))
        #expect(report["subprotocol"] == .string("graphql-ws"))
        #expect(report["target"] == .string("/headers?x=1"))
        #expect(report["headers"]?["sec-websocket-protocol"] == .string("graphql-ws, \(auth)"))
        #expect(report["headers"]?["x-trace"] == .string("42"))
        #expect(report["headers"]?["host"] == .string("127.0.0.1:\(server.port)"))
        try socket.close()
    }

    @Test func reassemblesFragments() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/fragments")
        #expect(try socket.receive(timeout: 60) == .text("Hello wörld"))
        #expect(try socket.receive(timeout: 60) == .binary([1, 2, 3]))
        try socket.close()
    }

    /// A ping is answered while the client waits for a message; the server saw the pong.
    @Test func answersPings() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/ping")
        #expect(try socket.receive(timeout: 60) == .text("pong ok"))
        #expect(try server.waitForLine(prefix: "pong ") == "pong /ping are you there")
        try socket.close()
    }

    /// The server closes: the client gets its code and reason and echoes them, completing the handshake.
    @Test func serverInitiatedClose() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/close")
        #expect(try socket.receive(timeout: 60) == .text("bye soon"))
        #expect(try socket.receive(timeout: 60) == .close(code: 4001, reason: "scenario over"))
        #expect(try server.waitForLine(prefix: "closed ") == "closed /close rcvd=4001: sent=4001:scenario over")
        #expect(throws: WebSocketError.closed) { try socket.receive(timeout: 60) }
        #expect(throws: WebSocketError.closed) { try socket.send(text: "late") }
        try socket.close()
    }

    /// The client closes: the server receives code and reason and answers.
    @Test func clientInitiatedClose() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/echo")
        try socket.send(text: "one")
        try socket.close(code: 1000, reason: "bye")
        #expect(try server.waitForLine(prefix: "closed ") == "closed /echo rcvd=1000:bye sent=1000:bye")
        #expect(throws: WebSocketError.closed) { try socket.send(text: "late") }
        try socket.close()
    }

    /// A frame with a reserved bit set ends the connection with 1002, which the server receives.
    @Test func protocolErrorClosesWith1002() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/reserved-bits")
        #expect {
            try socket.receive(timeout: 60)
        } throws: { error in
            guard case WebSocketError.protocolViolation(1002, let detail) = error else { return false }
            return detail.contains("reserved bits")
        }
        #expect(try server.waitForLine(prefix: "closed ").hasPrefix("closed /reserved-bits rcvd=1002:"))
    }

    /// Frames that arrive with the 101 response, in the same read, are not lost.
    @Test func framesInTheSameReadAsThe101() throws {
        let server = try WebSocketTestServer()
        let socket = try WebSocketConnection.connect(url: server.rawURL("/early"), timeout: 30)
        #expect(try socket.receive(timeout: 60) == .text("early bird"))
        #expect(try socket.receive(timeout: 60) == .close(code: 1000, reason: ""))
        #expect(try server.waitForLine(prefix: "raw-closed ") == "raw-closed /early 1000")
    }

    @Test func invalidUTF8ClosesWith1007() throws {
        let server = try WebSocketTestServer()
        let socket = try WebSocketConnection.connect(url: server.rawURL("/bad-utf8"), timeout: 30)
        #expect(throws: WebSocketError.protocolViolation(closeCode: 1007, "a text message is not valid UTF-8")) {
            try socket.receive(timeout: 60)
        }
        #expect(try server.waitForLine(prefix: "raw-closed ") == "raw-closed /bad-utf8 1007")
    }

    /// A message over the limit ends the connection with 1009, which the server receives.
    @Test func messageOverTheLimitClosesWith1009() throws {
        let server = try WebSocketTestServer()
        let socket = try WebSocketConnection.connect(url: server.url("/echo"), timeout: 30, maxMessageSize: 1000)
        try socket.send(text: String(repeating: "x", count: 1001))
        #expect(throws: WebSocketError.protocolViolation(closeCode: 1009, "a message is longer than the limit of 1000 bytes")) {
            try socket.receive(timeout: 60)
        }
        #expect(try server.waitForLine(prefix: "closed ").hasPrefix("closed /echo rcvd=1009:"))
    }

    @Test func connectionDroppedWithoutCloseFrame() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/drop")
        #expect(throws: WebSocketError.connectionLost) { try socket.receive(timeout: 60) }
    }

    /// Writing to a connection the server has closed is an error, not a SIGPIPE that ends the process.
    @Test func sendingAfterTheServerLeftFails() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/drop")
        #expect(try server.waitForLine(prefix: "closed ") == "closed /drop rcvd=none sent=none")
        #expect {
            for _ in 0..<1000 { try socket.send(text: String(repeating: "x", count: 1000)) }
        } throws: { error in
            guard case WebSocketError.connectionFailed(let detail) = error else { return false }
            return detail.hasPrefix("sending to 127.0.0.1:\(server.port) failed: ")
        }
    }

    @Test func receiveTimesOutWithNil() throws {
        let server = try WebSocketTestServer()
        let socket = try connect(server, "/silent")
        #expect(try socket.receive(timeout: 0.2) == nil)
        try socket.close()
        #expect(try server.waitForLine(prefix: "closed ") == "closed /silent rcvd=1000: sent=1000:")
    }

    /// Cancelling from another thread ends a wait; the connection can still close cleanly.
    @Test func cancellationEndsAWait() throws {
        let server = try WebSocketTestServer()
        let flag = CancellationFlag()
        let socket = try connect(server, "/silent", cancellation: flag)
        // The flag is set only once this thread is blocked in the receive's poll, so the wake-up pipe is what
        // ends it (a flag set before the wait would be seen without polling, and prove nothing).
        let receiver = try ThreadState.currentThreadID()
        let sawBlocked = LockedFlag()
        Thread.detachNewThread {
            if ThreadState.waitUntilPolling(receiver) { sawBlocked.set() }
            flag.cancel()
        }
        #expect(throws: WebSocketError.cancelled) { try socket.receive(timeout: 60) }
        #expect(sawBlocked.isSet, "the receive was never seen blocked in poll")
        #expect(throws: WebSocketError.cancelled) { try socket.send(text: "x") }
        try socket.close(code: WebSocketCloseCode.goingAway)
        #expect(try server.waitForLine(prefix: "closed ") == "closed /silent rcvd=1001: sent=1001:")
    }

    /// The raw port answers no TLS hello, so a wss:// connect stalls in libcurl; cancellation ends it. The flag
    /// is set once the server has the client's hello, so the connect is under way (not yet to begin) when it is.
    @Test func cancellationEndsAStalledConnect() throws {
        let server = try WebSocketTestServer()
        let flag = CancellationFlag()
        Thread.detachNewThread {
            _ = try? server.waitForLine(prefix: "raw-tls-hello")
            flag.cancel()
        }
        #expect(throws: WebSocketError.cancelled) {
            try WebSocketConnection.connect(url: WebSocketURL("wss://127.0.0.1:\(server.rawPort)/"), timeout: 60, cancellation: flag)
        }
    }

    @Test func stalledConnectTimesOut() throws {
        let server = try WebSocketTestServer()
        #expect(throws: WebSocketError.timeout(seconds: 0.3, during: "connecting to 127.0.0.1:\(server.rawPort)")) {
            try WebSocketConnection.connect(url: WebSocketURL("wss://127.0.0.1:\(server.rawPort)/"), timeout: 0.3)
        }
    }

    @Test func refusedUpgradeSaysStatusAndBody() throws {
        let server = try WebSocketTestServer()
        let expected = WebSocketError.upgradeRefused(status: 403, reason: "Forbidden", body: "no entry for this test")
        #expect(throws: expected) { try connect(server, "/refuse") }
        #expect(expected.description == "the server refused the WebSocket upgrade with HTTP 403 Forbidden: no entry for this test")
    }

    @Test func wrongAcceptValueIsRefused() throws {
        let server = try WebSocketTestServer()
        #expect {
            try connect(server, "/bad-accept")
        } throws: { error in
            guard case WebSocketError.badHandshake(let detail) = error else { return false }
            return detail.hasPrefix("Sec-WebSocket-Accept is 'bm90IHRoZSByaWdodCB2YWx1ZQ==', expected ")
        }
    }

    @Test(arguments: [0, -1, Double.infinity, Double.nan])
    func refusesANonPositiveTimeout(timeout: Double) throws {
        #expect(throws: WebSocketError.self) { try WebSocketConnection.connect(url: WebSocketURL("ws://127.0.0.1:1/"), timeout: timeout) }
    }

    @Test func connectionRefused() throws {
        #expect {
            try WebSocketConnection.connect(url: WebSocketURL("ws://127.0.0.1:1/"), timeout: 30)
        } throws: { error in
            guard case WebSocketError.connectionFailed(let detail) = error else { return false }
            return detail.hasPrefix("cannot connect to 127.0.0.1:1: ")
        }
    }

    /// wss:// trusts the test CA given as a CA file, and refuses the certificate without it.
    @Test func secureWebSocketWithTestCA() throws {
        let server = try WebSocketTestServer(tls: true)
        let url = try server.url("/echo", secure: true)
        let socket = try WebSocketConnection.connect(url: url, subprotocols: ["graphql-ws"], timeout: 30, caFile: server.caFile)
        #expect(socket.subprotocol == "graphql-ws")
        let text = String(repeating: "0123456789", count: 7_000)
        try socket.send(text: text)
        #expect(try socket.receive(timeout: 60) == .text(text))
        try socket.close()
        // Several frames in a row: bytes libcurl has already decrypted are read before waiting on the socket.
        let fragments = try WebSocketConnection.connect(url: server.url("/fragments", secure: true), timeout: 30,
                                                        caFile: server.caFile)
        #expect(try fragments.receive(timeout: 60) == .text("Hello wörld"))
        #expect(try fragments.receive(timeout: 60) == .binary([1, 2, 3]))
        try fragments.close()
        #expect {
            try WebSocketConnection.connect(url: url, timeout: 30)
        } throws: { error in
            guard case WebSocketError.connectionFailed(let detail) = error else { return false }
            return detail.contains("certificate")
        }
    }
}

/// A flag set on one thread and read on another.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// What a thread of this process is doing, from Linux's /proc/self/task/TID/syscall.
private enum ThreadState {
    #if arch(x86_64)
    static let pollCalls: Set<Int> = [7, 271]  // poll, ppoll
    #else
    static let pollCalls: Set<Int> = [73]  // ppoll (arm64 and other generic-table architectures)
    #endif

    /// This thread's id (what gettid returns), from the /proc/thread-self link ("PID/task/TID").
    static func currentThreadID() throws -> Int {
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        return try #require(link.split(separator: "/").last.flatMap { Int($0) })
    }

    /// Waits until thread `tid` is blocked in poll or ppoll; false if it is not within 60 s (a broken test
    /// must not hang). It looks every millisecond: the event is a kernel state, which nothing announces.
    static func waitUntilPolling(_ tid: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: "/proc/self/task/\(tid)/syscall", encoding: .utf8),
               let number = text.split(separator: " ").first.flatMap({ Int($0) }), pollCalls.contains(number) {
                return true
            }
            usleep(1000)
        }
        return false
    }
}
