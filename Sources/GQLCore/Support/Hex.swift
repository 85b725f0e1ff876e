/// Hexadecimal digits for bytes: the one table behind hashes, percent-encoding, UUIDs and byte values in messages.
///
/// ```swift
/// var text: [UInt8] = []
/// Hex.append(0x3F, to: &text)   // "3f"
/// Hex.digits(0x0A, uppercase: true)   // "0A"
/// ```
public enum Hex {
    /// Appends the two digits of `byte` to `text`.
    @inlinable
    public static func append(_ byte: UInt8, to text: inout [UInt8], uppercase: Bool = false) {
        text.append(digit(byte >> 4, uppercase: uppercase))
        text.append(digit(byte & 0x0F, uppercase: uppercase))
    }

    @usableFromInline
    static func digit(_ nibble: UInt8, uppercase: Bool) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
    }

    /// The two digits of `byte`.
    public static func digits(_ byte: UInt8, uppercase: Bool = false) -> String {
        var text: [UInt8] = []
        append(byte, to: &text, uppercase: uppercase)
        return String(decoding: text, as: UTF8.self)
    }
}
