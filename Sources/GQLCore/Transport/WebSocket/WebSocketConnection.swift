/// A client WebSocket connection (RFC 6455) over libcurl: ws:// and wss://, the upgrade written by gqlc,
/// automatic pongs, the close handshake, and waits that a ``CancellationFlag`` ends at once.
///
/// Use it from one thread; the cancellation flag may be set from any other (a signal handler's).
///
/// ```swift
/// let socket = try WebSocketConnection.connect(url: WebSocketURL("wss://example.com/graphql/realtime"),
///                                              subprotocols: ["graphql-ws"], timeout: 10)
/// try socket.send(text: #"{"type":"connection_init"}"#)
/// while let message = try socket.receive(timeout: 300) { … }   // nil: nothing within the timeout
/// try socket.close()
/// ```
public final class WebSocketConnection {
    /// The largest message accepted by default (AppSync's own limit is 240 KB).
    public static let defaultMaxMessageSize = 16 * 1024 * 1024

    /// The subprotocol the server chose, or nil.
    public let subprotocol: String?
    /// Seconds a send (and the closing handshake) may take.
    public let timeout: Double

    private let stream: CurlStreamSocket
    private var receiver: WebSocketReceiver
    private var readBuffer: [UInt8]
    /// True once a close frame has been sent.
    private var closeSent = false
    /// True once the connection is over (close frame received, protocol error or lost connection).
    private var finished = false

    private init(stream: CurlStreamSocket, subprotocol: String?, timeout: Double, maxMessageSize: Int) {
        self.stream = stream
        self.subprotocol = subprotocol
        self.timeout = timeout
        receiver = WebSocketReceiver(maxMessageSize: maxMessageSize)
        readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    }

    /// Connects and completes the opening handshake within `timeout` seconds.
    /// - Parameters:
    ///   - subprotocols: offered in `Sec-WebSocket-Protocol`, in order (HTTP tokens).
    ///   - headers: extra request headers; they must not set the handshake's own.
    ///   - caFile: a PEM bundle of CA certificates to trust instead of the system's (wss).
    ///   - maxMessageSize: a longer message from the server ends the connection with status 1009.
    public static func connect(
        url: WebSocketURL, subprotocols: [String] = [], headers: [HTTPHeader] = [], timeout: Double,
        caFile: String? = nil, maxMessageSize: Int = defaultMaxMessageSize, cancellation: CancellationFlag? = nil
    ) throws(WebSocketError) -> WebSocketConnection {
        guard timeout.isFinite, timeout > 0 else { throw .invalidRequest("the timeout \(timeout) is not a positive number of seconds") }
        let handshake = try WebSocketHandshake(url: url, subprotocols: subprotocols, headers: headers)
        let deadline = Deadline.after(timeout)
        let stream = try CurlStreamSocket.connect(url: url, timeout: timeout, caFile: caFile, cancellation: cancellation)
        try stream.send(handshake.request, deadline: deadline)

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let during = "waiting for the WebSocket handshake response from \(stream.peer)"
        while true {
            if let response = try WebSocketHandshake.Response.parse(received) {
                let rest = Array(received[response.length...])
                guard response.status == 101 else {
                    let body = readBody(of: response, after: rest, from: stream, deadline: deadline, into: &chunk)
                    throw .upgradeRefused(status: response.status, reason: response.reason, body: body)
                }
                let chosen = try handshake.accept(response)
                let connection = WebSocketConnection(stream: stream, subprotocol: chosen, timeout: timeout,
                                                     maxMessageSize: maxMessageSize)
                // Bytes after the blank line are the first frames.
                connection.receiver.append(rest)
                return connection
            }
            switch try stream.receive(into: &chunk, deadline: deadline) {
            case .bytes(let count): received += chunk[..<count]
            case .endOfStream: throw .badHandshake("the server closed the connection before it answered the upgrade")
            case .timedOut: throw .timeout(seconds: timeout, during: during)
            }
        }
    }

    /// Sends a text message; `interruptible: false` sends it even after cancellation (a goodbye message).
    public func send(text: String, interruptible: Bool = true) throws(WebSocketError) {
        guard !closeSent && !finished else { throw .closed }
        try writeFrame(WebSocketFrame(opcode: .text, payload: Array(text.utf8)), interruptible: interruptible)
    }

    /// Sends a binary message.
    public func send(binary: [UInt8]) throws(WebSocketError) {
        try send(WebSocketFrame(opcode: .binary, payload: binary))
    }

    /// Sends a ping; the server's pong is consumed by ``receive(timeout:)``.
    public func ping(_ payload: [UInt8] = []) throws(WebSocketError) {
        try send(WebSocketFrame(opcode: .ping, payload: Array(payload.prefix(125))))
    }

    /// The next message, waiting up to `timeout` seconds (nil: no limit). Returns nil when nothing arrived in
    /// time. Pings are answered on the way. A close from the server is answered and returned as
    /// ``WebSocketMessage/close(code:reason:)``; after it, receiving throws ``WebSocketError/closed``.
    /// `interruptible: false` waits even after cancellation (for the answers to a goodbye).
    public func receive(timeout: Double? = nil, interruptible: Bool = true) throws(WebSocketError) -> WebSocketMessage? {
        guard !finished else { throw .closed }
        let deadline = timeout.map { Deadline.after($0) }
        do throws(WebSocketError) {
            while true {
                if let message = try nextMessage() { return message }
                switch try readMore(deadline: deadline, interruptible: interruptible) {
                case .bytes: continue
                case .timedOut: return nil
                case .endOfStream: throw .connectionLost
                }
            }
        } catch {
            // A cancelled or timed-out wait leaves the connection usable (to close it); anything else ends it.
            switch error {
            case .cancelled, .timeout: break
            case .protocolViolation(let code, _): fail(closeCode: code)
            default: finish()
            }
            throw error
        }
    }

    /// The closing handshake: sends a close frame with `code` and `reason`, then waits up to `wait` seconds
    /// (``timeout`` when nil) for the server's close (messages that arrive meanwhile are dropped), and closes the
    /// socket. Works after cancellation too, so a cancelled client can still say goodbye. Closing twice does nothing.
    public func close(code: UInt16 = WebSocketCloseCode.normal, reason: String = "", wait: Double? = nil) throws(WebSocketError) {
        guard !finished else { return }
        defer { finish() }
        if !closeSent {
            closeSent = true
            try writeFrame(.close(code: code, reason: reason), interruptible: false)
        }
        let deadline = Deadline.after(wait ?? timeout)
        while true {
            guard let event = try? receiver.nextEvent() else {
                switch try readMore(deadline: deadline, interruptible: false) {
                case .bytes: continue
                case .endOfStream: return
                case .timedOut: throw .timeout(seconds: timeout, during: "waiting for the server to close the WebSocket")
                }
            }
            if case .message(.close) = event { return }
        }
    }

    /// Drops the connection without a closing handshake (it is broken, or the peer is not to be waited for).
    public func abandon() {
        guard !finished else { return }
        finish()
    }

    // MARK: - Internals

    /// The next message among the bytes already read, answering pings and a close on the way; nil if more
    /// bytes are needed.
    private func nextMessage() throws(WebSocketError) -> WebSocketMessage? {
        while let event = try receiver.nextEvent() {
            switch event {
            case .ping(let payload):
                if !closeSent { try send(WebSocketFrame(opcode: .pong, payload: payload)) }
            case .pong:
                continue
            case .message(.close(let code, let reason)):
                if !closeSent {
                    // Echo the status (§5.5.1); a close without one is answered without one.
                    closeSent = true
                    let reply = code == WebSocketCloseCode.noStatus
                        ? WebSocketFrame(opcode: .close, payload: []) : WebSocketFrame.close(code: code)
                    try? writeFrame(reply, interruptible: false)
                }
                finish()
                return .close(code: code, reason: reason)
            case .message(let message):
                return message
            }
        }
        return nil
    }

    // MARK: - Internals

    /// The connection is over: the socket is closed at once, so the server sees the end of the stream.
    private func finish() {
        finished = true
        stream.release()
    }

    private func send(_ frame: WebSocketFrame) throws(WebSocketError) {
        guard !closeSent && !finished else { throw .closed }
        try writeFrame(frame, interruptible: true)
    }

    private func writeFrame(_ frame: WebSocketFrame, interruptible: Bool) throws(WebSocketError) {
        try stream.send(frame.encoded(maskingKey: WebSocketFrame.randomMaskingKey()), deadline: .after(timeout),
                        interruptible: interruptible)
    }

    private func readMore(deadline: Deadline?, interruptible: Bool) throws(WebSocketError) -> CurlStreamSocket.ReadResult {
        let result = try stream.receive(into: &readBuffer, deadline: deadline, interruptible: interruptible)
        if case .bytes(let count) = result {
            readBuffer.withUnsafeBytes { receiver.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        return result
    }

    /// After a protocol error: tells the server why (best effort) and closes the socket.
    private func fail(closeCode: UInt16) {
        if !closeSent {
            closeSent = true
            try? writeFrame(.close(code: closeCode), interruptible: false)
        }
        finish()
    }

    /// Up to 512 bytes of a refused upgrade's body, on one line, for the error message: what arrives before
    /// the deadline, the end of the stream or a read error.
    private static func readBody(of response: WebSocketHandshake.Response, after rest: [UInt8], from stream: CurlStreamSocket,
                                 deadline: Deadline, into chunk: inout [UInt8]) -> String {
        let limit = 512
        let wanted = min(limit, Int(response.value(for: "content-length") ?? "") ?? 0)
        var body = rest
        while body.count < wanted {
            guard case .bytes(let count)? = try? stream.receive(into: &chunk, deadline: deadline) else { break }
            body += chunk[..<count]
        }
        var text = String(decoding: body.prefix(limit), as: UTF8.self)
        while text.last?.isWhitespace == true { text.removeLast() }
        if body.count > limit { text += "…" }
        return text.escapingLineBreaks
    }
}
