/// The WebSocket a ``RealtimeSubscriber`` speaks over: ``WebSocketConnection`` in use, a scripted socket in tests.
public protocol RealtimeSocket: AnyObject {
    /// Sends a text message; `interruptible: false` sends it even after cancellation (a goodbye).
    func send(text: String, interruptible: Bool) throws(WebSocketError)
    /// The next message within `timeout` seconds (nil: no limit), or nil when none came in time.
    func receive(timeout: Double?, interruptible: Bool) throws(WebSocketError) -> WebSocketMessage?
    /// The closing handshake, waiting up to `wait` seconds for the peer's close.
    func close(code: UInt16, reason: String, wait: Double?) throws(WebSocketError)
    /// Drops the connection without a closing handshake.
    func abandon()
}

extension RealtimeSocket {
    func send(text: String) throws(WebSocketError) { try send(text: text, interruptible: true) }
    func receive(timeout: Double?) throws(WebSocketError) -> WebSocketMessage? { try receive(timeout: timeout, interruptible: true) }
    func close(wait: Double? = nil) throws(WebSocketError) { try close(code: WebSocketCloseCode.normal, reason: "", wait: wait) }
}

extension WebSocketConnection: RealtimeSocket {}

/// What a new real-time connection is opened with: the URL, the subprotocols (the dialect's and the auth header's),
/// the time the handshake may take, the CA bundle and the cancellation flag.
public struct RealtimeSocketRequest: Sendable {
    /// The real-time endpoint.
    public let url: WebSocketURL
    /// The WebSocket subprotocols offered: the dialect's and the auth header's.
    public let subprotocols: [String]
    /// Seconds the handshake may take.
    public let timeout: Double
    /// A PEM bundle of CA certificates to trust instead of the system's (wss).
    public let caFile: String?
    /// Set to give up on the connection.
    public let cancellation: CancellationFlag?
}

/// Opens the sockets of a ``RealtimeSubscriber``: one per connection, the first and each after a lost one.
public typealias RealtimeConnector = @Sendable (RealtimeSocketRequest) throws(WebSocketError) -> any RealtimeSocket

extension RealtimeSocketRequest {
    /// The real connector: a ``WebSocketConnection`` over libcurl.
    public static let webSocket: RealtimeConnector = { request throws(WebSocketError) in
        try WebSocketConnection.connect(
            url: request.url, subprotocols: request.subprotocols, timeout: request.timeout, caFile: request.caFile,
            cancellation: request.cancellation)
    }
}
