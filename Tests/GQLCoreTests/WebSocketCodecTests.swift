import Testing
@testable import GQLCore

/// RFC 6455 framing: the example frames of §5.7, and every rule a client must enforce on what it receives.
@Suite struct WebSocketCodecTests {
    private static let hello = Array("Hello".utf8)
    private static let rfcMask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    /// All events in `bytes`, fed one byte at a time so every partial-header path runs.
    private func events(_ bytes: [UInt8], maxMessageSize: Int = 1 << 20, bytewise: Bool = true) throws(WebSocketError) -> [WebSocketEvent] {
        var receiver = WebSocketReceiver(maxMessageSize: maxMessageSize)
        var result: [WebSocketEvent] = []
        let chunks = bytewise ? bytes.map { [$0] } : [bytes]
        for chunk in chunks {
            receiver.append(chunk)
            while let event = try receiver.nextEvent() { result.append(event) }
        }
        #expect(!receiver.isInsideMessage)
        return result
    }

    private func closeCode(_ bytes: [UInt8], maxMessageSize: Int = 1 << 20) -> UInt16? {
        do {
            _ = try events(bytes, maxMessageSize: maxMessageSize, bytewise: false)
            return nil
        } catch {
            guard case .protocolViolation(let code, _) = error else { return nil }
            return code
        }
    }

    // MARK: - RFC 6455 §5.7 examples

    @Test func singleFrameUnmaskedText() throws {
        let frame: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        #expect(try events(frame) == [.message(.text("Hello"))])
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).encoded(maskingKey: nil) == frame)
    }

    @Test func singleFrameMaskedText() {
        let frame: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).encoded(maskingKey: Self.rfcMask) == frame)
    }

    @Test func fragmentedUnmaskedText() throws {
        let frames: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]
        #expect(try events(frames) == [.message(.text("Hello"))])
        let first = WebSocketFrame(opcode: .text, payload: Array("Hel".utf8), isFinal: false)
        let last = WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8))
        #expect(first.encoded(maskingKey: nil) + last.encoded(maskingKey: nil) == frames)
    }

    @Test func unmaskedPingAndMaskedPong() throws {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        #expect(try events(ping) == [.ping(Self.hello)])
        let pong: [UInt8] = [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(WebSocketFrame(opcode: .pong, payload: Self.hello).encoded(maskingKey: Self.rfcMask) == pong)
    }

    @Test func binary256BytesUses16BitLength() throws {
        let payload = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
        let encoded = WebSocketFrame(opcode: .binary, payload: payload).encoded(maskingKey: nil)
        #expect(Array(encoded.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(encoded.count == 4 + 256)
        #expect(try events(encoded, bytewise: false) == [.message(.binary(payload))])
    }

    @Test func binary64KiBUses64BitLength() throws {
        let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let encoded = WebSocketFrame(opcode: .binary, payload: payload).encoded(maskingKey: nil)
        #expect(Array(encoded.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00])
        #expect(try events(encoded, bytewise: false) == [.message(.binary(payload))])
    }

    // MARK: - Round trips through the masking encoder

    /// Lengths on each side of the 7/16/64-bit boundaries survive masking with random keys.
    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70_000])
    func maskedRoundTrip(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 1) }
        let key = WebSocketFrame.randomMaskingKey()
        let encoded = WebSocketFrame(opcode: .binary, payload: payload).encoded(maskingKey: key)
        #expect(encoded[1] & 0x80 == 0x80)
        var decoder = WebSocketFrameDecoder(maxPayload: 1 << 20, expectsMasked: true)
        decoder.append(encoded)
        #expect(try decoder.nextFrame() == WebSocketFrame(opcode: .binary, payload: payload))
        #expect(try decoder.nextFrame() == nil)
    }

    @Test func randomMaskingKeysDiffer() {
        let keys = Set((0..<8).map { _ in WebSocketFrame.randomMaskingKey() })
        #expect(keys.count > 1)
        #expect(keys.allSatisfy { $0.count == 4 })
    }

    /// A ping between two fragments of a message is delivered first; the message stays whole.
    @Test func controlFrameBetweenFragments() throws {
        let bytes = WebSocketFrame(opcode: .binary, payload: [1, 2], isFinal: false).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .ping, payload: [9]).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .continuation, payload: [3], isFinal: false).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .continuation, payload: [4]).encoded(maskingKey: nil)
        #expect(try events(bytes) == [.ping([9]), .message(.binary([1, 2, 3, 4]))])
    }

    /// A multi-byte character split across fragments is valid once reassembled.
    @Test func utf8SplitAcrossFragments() throws {
        let euro = Array("€".utf8)
        let bytes = WebSocketFrame(opcode: .text, payload: [euro[0]], isFinal: false).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .continuation, payload: Array(euro[1...])).encoded(maskingKey: nil)
        #expect(try events(bytes) == [.message(.text("€"))])
    }

    // MARK: - Close frames

    @Test func closeFrames() throws {
        #expect(try events(WebSocketFrame.close(code: 1000, reason: "bye").encoded(maskingKey: nil))
            == [.message(.close(code: 1000, reason: "bye"))])
        #expect(try events([0x88, 0x00]) == [.message(.close(code: WebSocketCloseCode.noStatus, reason: ""))])
        #expect(closeCode([0x88, 0x01, 0x03]) == 1002)
        #expect(closeCode(WebSocketFrame.close(code: 1005).encoded(maskingKey: nil)) == 1002)
        #expect(closeCode(WebSocketFrame.close(code: 999).encoded(maskingKey: nil)) == 1002)
        #expect(closeCode([0x88, 0x04, 0x03, 0xE8, 0xC3, 0x28]) == 1007)
        #expect(try events(WebSocketFrame.close(code: 4000).encoded(maskingKey: nil)) == [.message(.close(code: 4000, reason: ""))])
    }

    /// A long reason is cut to fit 125 bytes without splitting a character.
    @Test func closeReasonIsCutOnACharacterBoundary() throws {
        let frame = WebSocketFrame.close(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(frame.payload.count == 124)
        #expect(try events(frame.encoded(maskingKey: nil)) == [.message(.close(code: 1000, reason: String(repeating: "é", count: 61)))])
    }

    // MARK: - Protocol errors

    @Test func maskedServerFrameIsAProtocolError() {
        #expect(closeCode([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]) == 1002)
    }

    @Test(arguments: [0xC1, 0xA1, 0x91] as [UInt8])
    func reservedBitsAreAProtocolError(first: UInt8) {
        #expect(closeCode([first, 0x00]) == 1002)
    }

    @Test(arguments: [0x83, 0x87, 0x8B, 0x8F] as [UInt8])
    func unknownOpcodesAreAProtocolError(first: UInt8) {
        #expect(closeCode([first, 0x00]) == 1002)
    }

    @Test func oversizedOrFragmentedControlFrames() {
        #expect(closeCode([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126)) == 1002)
        #expect(closeCode([0x09, 0x00]) == 1002)
        #expect(closeCode([0x08, 0x00]) == 1002)
        #expect(closeCode([0x89, 0x7D] + [UInt8](repeating: 0, count: 125)) == nil)
    }

    @Test func fragmentSequenceErrors() {
        #expect(closeCode([0x80, 0x01, 0x41]) == 1002)
        #expect(closeCode([0x01, 0x01, 0x41, 0x81, 0x01, 0x42]) == 1002)
    }

    @Test func invalidUTF8TextIs1007() {
        #expect(closeCode([0x81, 0x02, 0xC3, 0x28]) == 1007)
        #expect(closeCode([0x81, 0x03, 0xED, 0xA0, 0x80]) == 1007)
        #expect(closeCode([0x82, 0x02, 0xC3, 0x28]) == nil)
    }

    @Test func lengthWithMostSignificantBitIsAProtocolError() {
        #expect(closeCode([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1]) == 1002)
    }

    /// The limit applies to one frame's declared length (before buffering) and to a reassembled message.
    @Test func messageSizeLimitIs1009() {
        #expect(closeCode([0x82, 0x7F, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF], maxMessageSize: 100) == 1009)
        let fragments = WebSocketFrame(opcode: .text, payload: [UInt8](repeating: 0x41, count: 60), isFinal: false).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .continuation, payload: [UInt8](repeating: 0x41, count: 60)).encoded(maskingKey: nil)
        #expect(closeCode(fragments, maxMessageSize: 100) == 1009)
        #expect(closeCode(fragments, maxMessageSize: 120) == nil)
    }
}
