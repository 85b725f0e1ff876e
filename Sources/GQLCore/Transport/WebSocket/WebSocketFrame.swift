/// The kind of a WebSocket frame (RFC 6455 §5.2).
public enum WebSocketOpcode: UInt8, Sendable {
    /// A later fragment of a text or binary message.
    case continuation = 0x0
    /// A UTF-8 text message (or its first fragment).
    case text = 0x1
    /// A binary message (or its first fragment).
    case binary = 0x2
    /// The closing handshake, with an optional status code and reason.
    case close = 0x8
    /// A keep-alive question; the peer answers with a pong carrying the same payload.
    case ping = 0x9
    /// The answer to a ping (or an unsolicited heartbeat).
    case pong = 0xA

    /// Close, ping and pong: never fragmented, at most 125 bytes of payload.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// Close status codes (RFC 6455 §7.4.1) that gqlc sends or reports.
public enum WebSocketCloseCode {
    /// The purpose of the connection was fulfilled.
    public static let normal: UInt16 = 1000
    /// The endpoint is going away (a client stopped by Ctrl-C, a server shutting down).
    public static let goingAway: UInt16 = 1001
    /// The peer broke the protocol.
    public static let protocolError: UInt16 = 1002
    /// Reported (never sent) when a close frame carried no code.
    public static let noStatus: UInt16 = 1005
    /// Reported (never sent) when the connection ended without a close frame.
    public static let abnormal: UInt16 = 1006
    /// A text message (or close reason) was not valid UTF-8.
    public static let invalidPayload: UInt16 = 1007
    /// A message was longer than the receiver accepts.
    public static let messageTooBig: UInt16 = 1009

    /// True for a code a peer may put in a close frame: 1000–1003, 1007–1014 and 3000–4999.
    public static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }
}

/// One WebSocket frame: the FIN bit, the opcode and the (unmasked) payload.
public struct WebSocketFrame: Sendable, Equatable {
    /// True on the last frame of a message (and on every control frame).
    public var isFinal: Bool
    /// What the frame carries.
    public var opcode: WebSocketOpcode
    /// The application data, unmasked.
    public var payload: [UInt8]

    /// Makes a frame; a message's only frame by default.
    public init(opcode: WebSocketOpcode, payload: [UInt8], isFinal: Bool = true) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
    }

    /// A close frame carrying `code` and `reason` (UTF-8, cut so the payload stays within 125 bytes).
    public static func close(code: UInt16, reason: String = "") -> WebSocketFrame {
        var payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var reasonBytes = Array(reason.utf8.prefix(123))
        // Do not cut a multi-byte character in half: drop continuation bytes left without their lead byte.
        if reasonBytes.count < reason.utf8.count {
            while let last = reasonBytes.last, last & 0xC0 == 0x80 { reasonBytes.removeLast() }
            if let last = reasonBytes.last, last & 0xC0 == 0xC0 { reasonBytes.removeLast() }
        }
        payload += reasonBytes
        return WebSocketFrame(opcode: .close, payload: payload)
    }

    /// The frame on the wire. A client masks every frame with a fresh 4-byte key (§5.3); `maskingKey: nil`
    /// writes an unmasked frame, as a server does.
    public func encoded(maskingKey: [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((isFinal ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch payload.count {
        case 0...125:
            bytes.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF:
            bytes.append(maskBit | 126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(maskBit | 127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        }
        guard let key = maskingKey, key.count == 4 else {
            bytes += payload
            return bytes
        }
        bytes += key
        let start = bytes.count
        bytes += payload
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<payload.count { buffer[start + index] ^= key[index & 3] }
        }
        return bytes
    }

    /// Four random bytes from the system's secure generator, for ``encoded(maskingKey:)``.
    public static func randomMaskingKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let word = generator.next() as UInt32
        return [UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
    }
}
