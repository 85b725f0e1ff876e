/// Cuts a byte stream from a WebSocket server into frames, checking each header against RFC 6455 §5.
///
/// Feed it bytes as they arrive with ``append(_:)``; ``nextFrame()`` returns a frame once all of it is
/// buffered, or nil. A header that breaks the protocol throws ``WebSocketError/protocolViolation(closeCode:_:)``
/// with the status to close with.
struct WebSocketFrameDecoder {
    /// The largest payload accepted in one frame; longer frames fail with 1009 before they are buffered.
    let maxPayload: Int
    /// Servers never mask (§5.1); true decodes client frames (tests use it to read what the client wrote).
    let expectsMasked: Bool
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` before this index have been decoded.
    private var start = 0

    init(maxPayload: Int, expectsMasked: Bool = false) {
        self.maxPayload = maxPayload
        self.expectsMasked = expectsMasked
    }

    /// True when bytes of an unfinished frame are buffered.
    var hasPartialFrame: Bool { start < buffer.count }

    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next whole frame, or nil when more bytes are needed.
    mutating func nextFrame() throws(WebSocketError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        if first & 0x70 != 0 {
            throw violation("a frame has reserved bits set (0x\(hex(first & 0x70))) but no extension was agreed")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw violation("unknown frame opcode 0x\(hex(first & 0x0F))")
        }
        let isFinal = first & 0x80 != 0
        let masked = second & 0x80 != 0
        if masked != expectsMasked {
            throw violation(masked ? "the server sent a masked frame" : "the client sent an unmasked frame")
        }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(buffer[start + index]) }
            if length >> 63 != 0 { throw violation("a frame length has its most significant bit set") }
            headerLength = 10
        }
        if opcode.isControl {
            if !isFinal { throw violation("a \(opcode) control frame is fragmented") }
            if length > 125 { throw violation("a \(opcode) control frame has \(length) bytes of payload (at most 125)") }
        }
        if length > UInt64(maxPayload) {
            throw .protocolViolation(closeCode: WebSocketCloseCode.messageTooBig,
                                     "a message is longer than the limit of \(maxPayload) bytes")
        }
        let maskLength = masked ? 4 : 0
        let total = headerLength + maskLength + Int(length)
        guard available >= total else { return nil }
        let payloadStart = start + headerLength + maskLength
        var payload = Array(buffer[payloadStart..<(start + total)])
        if masked {
            let key = Array(buffer[(start + headerLength)..<payloadStart])
            for index in payload.indices { payload[index] ^= key[index & 3] }
        }
        start += total
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
        }
        return WebSocketFrame(opcode: opcode, payload: payload, isFinal: isFinal)
    }

    private func violation(_ detail: String) -> WebSocketError {
        .protocolViolation(closeCode: WebSocketCloseCode.protocolError, detail)
    }

    private func hex(_ byte: UInt8) -> String {
        String(byte, radix: 16, uppercase: true)
    }
}
