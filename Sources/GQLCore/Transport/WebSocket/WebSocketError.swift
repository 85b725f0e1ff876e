/// Why a WebSocket connection could not be made or ended badly. Messages name the problem, never a secret
/// and never a command-line flag.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not a usable ws:// or wss:// URL; the second value says why.
    case invalidURL(String, reason: String)
    /// A subprotocol or header cannot go into the upgrade request.
    case invalidRequest(String)
    /// The server answered the upgrade with another status than 101.
    case upgradeRefused(status: Int, reason: String, body: String)
    /// The server's 101 response breaks RFC 6455 §4.1 (wrong accept value, missing upgrade headers…).
    case badHandshake(String)
    /// The server broke RFC 6455; gqlc closed the connection with `closeCode`.
    case protocolViolation(closeCode: UInt16, String)
    /// The connection could not be made or broke (DNS, refused, reset, TLS…).
    case connectionFailed(String)
    /// The connection ended without a close handshake.
    case connectionLost
    /// Nothing happened within the time allowed; `during` names the step.
    case timeout(seconds: Double, during: String)
    /// The cancellation flag was set.
    case cancelled
    /// The connection is already closed; nothing can be sent.
    case closed

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid WebSocket URL '\(url)': \(reason)"
        case .invalidRequest(let detail):
            return "cannot build the WebSocket upgrade request: \(detail)"
        case .upgradeRefused(let status, let reason, let body):
            let phrase = reason.isEmpty ? "" : " \(reason)"
            let detail = body.isEmpty ? "" : ": \(body)"
            return "the server refused the WebSocket upgrade with HTTP \(status)\(phrase)\(detail)"
        case .badHandshake(let detail):
            return "invalid WebSocket handshake response: \(detail)"
        case .protocolViolation(let code, let detail):
            return "WebSocket protocol error from the server (closed with \(code)): \(detail)"
        case .connectionFailed(let detail):
            return "WebSocket connection failed: \(detail)"
        case .connectionLost:
            return "the WebSocket connection was closed by the server without a close handshake"
        case .timeout(let seconds, let during):
            return "timed out after \(formatSeconds(seconds)) s \(during)"
        case .cancelled:
            return "cancelled"
        case .closed:
            return "the WebSocket connection is closed"
        }
    }

    private func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
