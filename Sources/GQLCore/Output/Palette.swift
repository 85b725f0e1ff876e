/// The colours gqlc prints with, in one place: JSON tokens, table headers and diff lines, as ANSI SGR codes.
///
/// The choices follow jq's defaults where jq has one (keys bold blue, strings green, null grey).
public struct Palette: Sendable, Equatable {
    /// JSON object keys.
    public var key = "1;34"
    /// JSON strings.
    public var string = "32"
    /// Numbers, in JSON and tables.
    public var number = "36"
    /// `true` and `false`.
    public var boolean = "33"
    /// `null`.
    public var null = "90"
    /// A table's header and a diff's model names.
    public var header = "1"
    /// A difference: a record only in the second set (the target), only in the first (the source), in both with
    /// different values (as git colours a diff).
    public var added = "32"
    /// See ``added``.
    public var removed = "31"
    /// See ``added``.
    public var changed = "33"

    /// gqlc's colours; change a field to change one colour.
    public init() {}

    /// gqlc's colours.
    public static let standard = Palette()

    /// `text` wrapped in the escape sequence for `code` and a reset.
    public func paint(_ text: String, _ code: String) -> String { "\u{1B}[\(code)m\(text)\u{1B}[0m" }

    /// Appends `bytes` to `out`, wrapped in `code`.
    public func paint(_ bytes: ArraySlice<UInt8>, _ code: String, into out: inout [UInt8]) {
        out.append(0x1B)
        out.append(contentsOf: Array("[\(code)m".utf8))
        out.append(contentsOf: bytes)
        out.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")])
    }
}
