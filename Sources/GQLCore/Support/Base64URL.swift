/// Base64url (RFC 4648 §5) without padding, for the opaque tokens gqlc prints.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` as base64url text, without `=` padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for position in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of unpadded base64url `text`, or nil when it is not exactly that (canonical) spelling.
    static func decode(_ text: String) -> [UInt8]? {
        var values: [Int] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard let value = alphabet.firstIndex(of: byte) else { return nil }
            values.append(value)
        }
        guard values.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var value = 0
            for digit in chunk { value = value << 6 | digit }
            value <<= 6 * (4 - chunk.count)
            for position in 0..<(chunk.count - 1) { bytes.append(UInt8((value >> (16 - 8 * position)) & 255)) }
            index += 4
        }
        return encode(bytes) == text ? bytes : nil
    }
}
