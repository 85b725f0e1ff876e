/// Base64 encoding (RFC 4648), in the standard alphabet or the URL-safe one.
///
/// ```swift
/// Base64.encode(Array("hi?".utf8))                             // "aGk/"
/// Base64.encode(Array("hi?".utf8), alphabet: .url, padded: false)  // "aGk_"
/// ```
public enum Base64 {
    /// The 64 characters used.
    public enum Alphabet: Sendable {
        /// `A–Z a–z 0–9 + /` (§4).
        case standard
        /// `A–Z a–z 0–9 - _` (§5), safe in URLs and HTTP tokens.
        case url
    }

    /// The encoding of `bytes`; `padded: false` leaves out the trailing `=`.
    public static func encode(_ bytes: [UInt8], alphabet: Alphabet = .standard, padded: Bool = true) -> String {
        let table = alphabet == .standard ? standardTable : urlTable
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(table[Int(group >> 18 & 0x3F)])
            output.append(table[Int(group >> 12 & 0x3F)])
            if remaining > 1 { output.append(table[Int(group >> 6 & 0x3F)]) } else if padded { output.append(UInt8(ascii: "=")) }
            if remaining > 2 { output.append(table[Int(group & 0x3F)]) } else if padded { output.append(UInt8(ascii: "=")) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes that `text` encodes, or nil unless `text` is exactly what ``encode(_:alphabet:padded:)``
    /// writes for them (the canonical spelling: no stray characters, padding as asked, zero spare bits).
    public static func decode(_ text: String, alphabet: Alphabet = .standard, padded: Bool = true) -> [UInt8]? {
        let table = alphabet == .standard ? standardTable : urlTable
        var body = Substring(text)
        if padded {
            guard text.utf8.count % 4 == 0 else { return nil }
            while body.hasSuffix("=") { body = body.dropLast() }
        }
        var digits: [UInt32] = []
        digits.reserveCapacity(body.utf8.count)
        for byte in body.utf8 {
            guard let digit = table.firstIndex(of: byte) else { return nil }
            digits.append(UInt32(digit))
        }
        guard digits.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count * 3 / 4)
        var index = 0
        while index < digits.count {
            let count = min(4, digits.count - index)
            var group: UInt32 = 0
            for offset in 0..<4 { group = group << 6 | (offset < count ? digits[index + offset] : 0) }
            for position in 0..<(count - 1) { bytes.append(UInt8(truncatingIfNeeded: group >> (16 - 8 * UInt32(position)))) }
            index += 4
        }
        return encode(bytes, alphabet: alphabet, padded: padded) == text ? bytes : nil
    }

    private static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
