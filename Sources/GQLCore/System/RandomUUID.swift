/// Random (version 4) UUIDs as uppercase text, `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, the form
/// Foundation's `UUID().uuidString` printed.
public enum RandomUUID {
    /// A new UUID from the system's random number generator.
    public static func string() -> String {
        var generator = SystemRandomNumberGenerator()
        return string(using: &generator)
    }

    /// A new UUID from `generator` (seeded generators give repeatable values in tests).
    public static func string(using generator: inout some RandomNumberGenerator) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            Hex.append(byte, to: &text, uppercase: true)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
