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

    private static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
