/// SHA-1 (FIPS 180-4), written out because gqlc has no crypto dependency. Only the WebSocket handshake uses it
/// (RFC 6455 `Sec-WebSocket-Accept`), where it is a checksum, not a security measure.
///
/// ```swift
/// SHA1.hash(Array("abc".utf8)).hexString   // "a9993e36…9cd0d89d"
/// ```
public enum SHA1 {
    /// Bytes in one digest.
    public static let digestLength = 20
    private static let blockLength = 64

    /// The digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var message = bytes
        let bitLength = UInt64(bytes.count) &* 8
        message.append(0x80)
        while message.count % blockLength != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var schedule = [UInt32](repeating: 0, count: 80)
        for offset in stride(from: 0, to: message.count, by: blockLength) {
            for t in 0..<16 {
                let base = offset + t * 4
                schedule[t] = UInt32(message[base]) << 24 | UInt32(message[base + 1]) << 16
                    | UInt32(message[base + 2]) << 8 | UInt32(message[base + 3])
            }
            for t in 16..<80 {
                schedule[t] = rotl(schedule[t - 3] ^ schedule[t - 8] ^ schedule[t - 14] ^ schedule[t - 16], 1)
            }
            var a = state[0], b = state[1], c = state[2], d = state[3], e = state[4]
            for t in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch t {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = rotl(a, 5) &+ f &+ e &+ k &+ schedule[t]
                e = d
                d = c
                c = rotl(b, 30)
                b = a
                a = temp
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(digestLength)
        for word in state {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        hash(Array(text.utf8))
    }

    private static func rotl(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
