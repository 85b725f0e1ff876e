/// A JSON number stored as its literal text, so that 64-bit ids and long decimals survive a round trip.
///
/// Two numbers are equal when their text is equal: `1.0` and `1` are different numbers here.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in the source (or produced by an initializer).
    public let text: String

    /// Wraps text that the caller has already checked to be a JSON number.
    init(uncheckedText text: String) { self.text = text }

    /// Makes a number from text, or returns nil if it is not a valid JSON number literal.
    public init?(_ text: String) {
        guard JSONNumber.isValidLiteral(text) else { return nil }
        self.text = text
    }

    /// The decimal text of an integer.
    public init(_ value: Int) { text = String(value) }
    /// The decimal text of a 64-bit integer.
    public init(_ value: Int64) { text = String(value) }

    /// Doubles print in their shortest round-tripping form; non-finite values are not JSON and become 0.
    public init(_ value: Double) {
        guard value.isFinite else { text = "0"; return }
        if abs(value) < 1e15, let integer = Int64(exactly: value) { text = String(integer) } else { text = "\(value)" }
    }

    public var description: String { text }

    /// The value as an Int64, if it is an integer literal in range.
    public var int64Value: Int64? { Int64(text) }
    /// The value as an Int, if it is an integer literal in range.
    public var intValue: Int? { Int(text) }
    /// The value as a Double (may lose precision).
    public var doubleValue: Double? { Double(text) }
    /// True when the literal has no fraction or exponent.
    public var isInteger: Bool { !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) }

    /// Checks the JSON number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    public static func isValidLiteral(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, isDigit(first) else { return false }
        bytes = bytes.dropFirst()
        if first != UInt8(ascii: "0") { bytes = bytes.drop(while: isDigit) }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard let digit = bytes.first, isDigit(digit) else { return false }
            bytes = bytes.drop(while: isDigit)
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard let digit = bytes.first, isDigit(digit) else { return false }
            bytes = bytes.drop(while: isDigit)
        }
        return bytes.isEmpty
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
