/// The kinds of lexical token in an executable GraphQL document.
enum TokenKind: Equatable, Sendable {
    case endOfFile
    case bang, dollar, ampersand, parenOpen, parenClose, spread, colon, equals, at
    case bracketOpen, bracketClose, braceOpen, pipe, braceClose
    case name, int, float, string, blockString
}

extension TokenKind {
    /// True for the tokens a value can start with.
    var canStartValue: Bool {
        switch self {
        case .dollar, .int, .float, .string, .blockString, .name, .bracketOpen, .braceOpen: return true
        default: return false
        }
    }
}

/// One token: its kind, byte range, and value (a name, number text, or decoded string).
struct Token: Sendable {
    var kind: TokenKind
    var start: Int
    var end: Int
    var value: String

    /// The token as an error message shows it: `'}'`, `name 'qeury'`, `end of file`.
    var description: String {
        switch kind {
        case .endOfFile: return "end of file"
        case .bang: return "'!'"
        case .dollar: return "'$'"
        case .ampersand: return "'&'"
        case .parenOpen: return "'('"
        case .parenClose: return "')'"
        case .spread: return "'...'"
        case .colon: return "':'"
        case .equals: return "'='"
        case .at: return "'@'"
        case .bracketOpen: return "'['"
        case .bracketClose: return "']'"
        case .braceOpen: return "'{'"
        case .pipe: return "'|'"
        case .braceClose: return "'}'"
        case .name: return "name '\(value)'"
        case .int, .float: return "number \(value)"
        case .string, .blockString:
            let shown = value.unicodeScalars.count > 20 ? String(String.UnicodeScalarView(value.unicodeScalars.prefix(20))) + "…" : value
            return "string " + DocumentPrinter.quoted(shown)
        }
    }
}

/// Byte classes of the GraphQL lexical grammar.
enum ASCII {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isNameStart(_ byte: UInt8) -> Bool { isLetter(byte) || byte == 0x5F }
    static func isNameContinue(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }
}

extension Unicode.Scalar {
    /// How an error message names a character: `'%'`, `'é' (U+00E9)`, or `U+0007` for invisible ones.
    var errorDescription: String {
        let code = "U+" + String(repeating: "0", count: max(0, 4 - String(value, radix: 16).count))
            + String(value, radix: 16, uppercase: true)
        let invisible = value < 0x20 || value == 0x7F || properties.isWhitespace
            || properties.generalCategory == .format || properties.generalCategory == .control
        if invisible { return code }
        if isASCII { return "'\(self)'" }
        return "'\(self)' (\(code))"
    }
}
