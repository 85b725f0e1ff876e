/// Hexadecimal digits for bytes, both ways: the one place behind hashes, percent-encoding and -decoding, UUIDs,
/// `\u` escapes and byte values in messages.
///
/// ```swift
/// var text: [UInt8] = []
/// Hex.append(0x3F, to: &text)   // "3f"
/// Hex.digits(0x0A, uppercase: true)   // "0A"
/// Hex.value(UInt8(ascii: "f"))   // 15
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

    /// The value of one hex digit (`0-9`, `a-f`, `A-F`), or nil for any other byte.
    @inlinable
    public static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The two digits of `byte`.
    public static func digits(_ byte: UInt8, uppercase: Bool = false) -> String {
        var text: [UInt8] = []
        append(byte, to: &text, uppercase: uppercase)
        return String(decoding: text, as: UTF8.self)
    }
}
