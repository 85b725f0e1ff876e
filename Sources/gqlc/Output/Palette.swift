/// The colours gqlc prints with, in one place: JSON tokens, table headers and diff lines, as ANSI SGR codes.
///
/// The choices follow jq's defaults where jq has one (keys bold blue, strings green, null grey).
struct Palette: Sendable, Equatable {
    var key = "1;34"
    var string = "32"
    var number = "36"
    var boolean = "33"
    var null = "90"
    var header = "1"
    /// `diff`: a record only in `--to`, only in `--from`, in both with different values (as git colours a diff).
    var added = "32"
    var removed = "31"
    var changed = "33"

    static let standard = Palette()

    /// Whether standard output is coloured: `--color always|never`, else (`auto`, which `NO_COLOR` and `TERM=dumb`
    /// have already turned to `never`) when it is a terminal.
    static func isOn(_ globals: GlobalOptions, console: Console) -> Bool {
        switch globals.color {
        case .always: true
        case .never: false
        case .auto: console.outputIsTerminal
        }
    }

    /// `text` wrapped in the escape sequence for `code` and a reset.
    func paint(_ text: String, _ code: String) -> String { "\u{1B}[\(code)m\(text)\u{1B}[0m" }

    /// Appends `bytes` to `out`, wrapped in `code`.
    func paint(_ bytes: ArraySlice<UInt8>, _ code: String, into out: inout [UInt8]) {
        out.append(0x1B)
        out.append(contentsOf: Array("[\(code)m".utf8))
        out.append(contentsOf: bytes)
        out.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")])
    }
}
