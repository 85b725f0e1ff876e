/// A whole message from a WebSocket server.
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message (valid UTF-8, checked).
    case text(String)
    /// A binary message.
    case binary([UInt8])
    /// The server closed the connection: its status code (1005 when it gave none) and reason.
    case close(code: UInt16, reason: String)
}

/// What one step of reading yields: a message, or a control frame the connection answers itself.
enum WebSocketEvent: Sendable, Equatable {
    case message(WebSocketMessage)
    case ping([UInt8])
    case pong([UInt8])
}

/// Turns frames into messages (RFC 6455 §5.4–5.5): reassembles fragments, lets control frames through in
/// between, checks text for UTF-8 (1007) and the total size of a message (1009), and reads close frames.
struct WebSocketReceiver {
    private var decoder: WebSocketFrameDecoder
    let maxMessageSize: Int
    /// The opcode and bytes so far of a fragmented message.
    private var partial: (opcode: WebSocketOpcode, bytes: [UInt8])?

    init(maxMessageSize: Int, expectsMasked: Bool = false) {
        self.maxMessageSize = maxMessageSize
        decoder = WebSocketFrameDecoder(maxPayload: maxMessageSize, expectsMasked: expectsMasked)
    }

    /// True when bytes of an unfinished frame or message are held.
    var isInsideMessage: Bool { partial != nil || decoder.hasPartialFrame }

    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        decoder.append(bytes)
    }

    /// Adds received bytes.
    mutating func append(_ bytes: [UInt8]) {
        decoder.append(bytes)
    }

    /// The next event, or nil when more bytes are needed.
    mutating func nextEvent() throws(WebSocketError) -> WebSocketEvent? {
        while let frame = try decoder.nextFrame() {
            switch frame.opcode {
            case .ping: return .ping(frame.payload)
            case .pong: return .pong(frame.payload)
            case .close: return .message(try Self.closeMessage(frame.payload))
            case .text, .binary:
                if partial != nil {
                    throw violation("a new \(frame.opcode) message started before the fragmented one before it ended")
                }
                if frame.isFinal { return .message(try message(frame.opcode, frame.payload)) }
                partial = (frame.opcode, frame.payload)
            case .continuation:
                guard case (let opcode, var bytes)? = partial else {
                    throw violation("a continuation frame came with no fragmented message to continue")
                }
                partial = nil
                guard frame.payload.count <= maxMessageSize - bytes.count else {
                    throw .protocolViolation(closeCode: WebSocketCloseCode.messageTooBig,
                                             "a message is longer than the limit of \(maxMessageSize) bytes")
                }
                bytes += frame.payload
                if frame.isFinal { return .message(try message(opcode, bytes)) }
                partial = (opcode, bytes)
            }
        }
        return nil
    }

    private func message(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
        guard opcode == .text else { return .binary(bytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .protocolViolation(closeCode: WebSocketCloseCode.invalidPayload, "a text message is not valid UTF-8")
        }
        return .text(text)
    }

    /// Reads a close frame's payload (§5.5.1): nothing, or a 2-byte status then a UTF-8 reason.
    static func closeMessage(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
        if payload.isEmpty { return .close(code: WebSocketCloseCode.noStatus, reason: "") }
        guard payload.count >= 2 else {
            throw .protocolViolation(closeCode: WebSocketCloseCode.protocolError, "a close frame has a 1-byte payload")
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard WebSocketCloseCode.isSendable(code) else {
            throw .protocolViolation(closeCode: WebSocketCloseCode.protocolError, "a close frame has the invalid status code \(code)")
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw .protocolViolation(closeCode: WebSocketCloseCode.invalidPayload, "a close frame's reason is not valid UTF-8")
        }
        return .close(code: code, reason: reason)
    }

    private func violation(_ detail: String) -> WebSocketError {
        .protocolViolation(closeCode: WebSocketCloseCode.protocolError, detail)
    }
}
