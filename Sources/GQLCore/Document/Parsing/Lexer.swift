/// Splits GraphQL source into tokens, skipping ignored tokens: whitespace, line terminators,
/// commas, comments and byte-order marks (GraphQL spec, October 2021, section 2.1).
struct Lexer {
    let source: SourceText
    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ source: SourceText) {
        self.source = source
        bytes = source.bytes
    }

    /// An error at a byte offset.
    func error(_ message: String, at offset: Int) -> GraphQLSyntaxError {
        let (position, lineText) = source.locate(offset)
        return GraphQLSyntaxError(
            message: message, position: position, offset: offset, fileName: source.fileName, lineText: lineText)
    }

    /// The next token; `.endOfFile` once the input is used up.
    mutating func next() throws(GraphQLSyntaxError) -> Token {
        skipIgnored()
        let start = index
        guard start < bytes.count else { return Token(kind: .endOfFile, start: start, end: start, value: "") }
        let first = bytes[start]
        let punctuator: TokenKind?
        switch first {
        case UInt8(ascii: "!"): punctuator = .bang
        case UInt8(ascii: "$"): punctuator = .dollar
        case UInt8(ascii: "&"): punctuator = .ampersand
        case UInt8(ascii: "("): punctuator = .parenOpen
        case UInt8(ascii: ")"): punctuator = .parenClose
        case UInt8(ascii: ":"): punctuator = .colon
        case UInt8(ascii: "="): punctuator = .equals
        case UInt8(ascii: "@"): punctuator = .at
        case UInt8(ascii: "["): punctuator = .bracketOpen
        case UInt8(ascii: "]"): punctuator = .bracketClose
        case UInt8(ascii: "{"): punctuator = .braceOpen
        case UInt8(ascii: "|"): punctuator = .pipe
        case UInt8(ascii: "}"): punctuator = .braceClose
        default: punctuator = nil
        }
        if let punctuator {
            index += 1
            return Token(kind: punctuator, start: start, end: index, value: "")
        }
        if first == UInt8(ascii: ".") {
            guard byte(at: start + 1) == UInt8(ascii: "."), byte(at: start + 2) == UInt8(ascii: ".") else {
                throw error("unexpected character '.'; did you mean '...'?", at: start)
            }
            index += 3
            return Token(kind: .spread, start: start, end: index, value: "")
        }
        if ASCII.isNameStart(first) { return readName() }
        if ASCII.isDigit(first) || first == UInt8(ascii: "-") { return try readNumber() }
        if first == UInt8(ascii: "\"") {
            if byte(at: start + 1) == UInt8(ascii: "\""), byte(at: start + 2) == UInt8(ascii: "\"") {
                return try readBlockString()
            }
            return try readString()
        }
        if first == UInt8(ascii: "'") {
            throw error("unexpected character '''; GraphQL strings use double quotes", at: start)
        }
        throw error("unexpected character \(scalar(at: start).errorDescription)", at: start)
    }

    // MARK: Ignored tokens

    private mutating func skipIgnored() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","):
                index += 1
            case 0xEF where byte(at: index + 1) == 0xBB && byte(at: index + 2) == 0xBF:
                index += 3
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            default:
                return
            }
        }
    }

    // MARK: Names and numbers

    private mutating func readName() -> Token {
        let start = index
        index += 1
        while index < bytes.count, ASCII.isNameContinue(bytes[index]) { index += 1 }
        return Token(kind: .name, start: start, end: index, value: text(start, index))
    }

    /// IntValue and FloatValue, kept as text. A number may not be followed by a digit, `.` or a name start.
    private mutating func readNumber() throws(GraphQLSyntaxError) -> Token {
        let start = index
        var isFloat = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard let first = byte(at: index), ASCII.isDigit(first) else {
            throw error("invalid number '\(text(start, index))'; expected a digit after '-'", at: index)
        }
        index += 1
        if first == UInt8(ascii: "0"), let next = byte(at: index), ASCII.isDigit(next) {
            throw error("invalid number '\(text(start, index + 1))'; a number cannot start with 0 followed by a digit", at: index)
        }
        skipDigits()
        if byte(at: index) == UInt8(ascii: ".") {
            isFloat = true
            index += 1
            try requireDigit(start, "after '.'")
        }
        if let e = byte(at: index), e | 0x20 == UInt8(ascii: "e") {
            isFloat = true
            index += 1
            if let sign = byte(at: index), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            try requireDigit(start, "in the exponent")
        }
        if let next = byte(at: index), next == UInt8(ascii: ".") || ASCII.isNameStart(next) {
            let shown = text(start, index) + String(scalar(at: index))
            throw error("invalid number '\(shown)'; a number cannot be followed by '\(scalar(at: index))'", at: index)
        }
        return Token(kind: isFloat ? .float : .int, start: start, end: index, value: text(start, index))
    }

    private mutating func requireDigit(_ start: Int, _ place: String) throws(GraphQLSyntaxError) {
        guard let digit = byte(at: index), ASCII.isDigit(digit) else {
            throw error("invalid number '\(text(start, index))'; expected a digit \(place)", at: index)
        }
        skipDigits()
    }

    private mutating func skipDigits() {
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Strings

    private mutating func readString() throws(GraphQLSyntaxError) -> Token {
        let start = index
        index += 1
        var value: [UInt8] = []
        var chunkStart = index
        while true {
            guard index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D else {
                throw error("unterminated string; close it with '\"' before the end of the line", at: start)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                value += bytes[chunkStart..<index]
                index += 1
                return Token(kind: .string, start: start, end: index, value: String(decoding: value, as: UTF8.self))
            }
            if byte == UInt8(ascii: "\\") {
                value += bytes[chunkStart..<index]
                try readEscape(into: &value, stringStart: start)
                chunkStart = index
            } else {
                index += 1
            }
        }
    }

    /// One escape sequence at `index` (a backslash); appends its UTF-8 and moves past it.
    private mutating func readEscape(into value: inout [UInt8], stringStart: Int) throws(GraphQLSyntaxError) {
        let backslash = index
        guard let escaped = byte(at: backslash + 1), escaped != 0x0A, escaped != 0x0D else {
            throw error("unterminated string; close it with '\"' before the end of the line", at: stringStart)
        }
        let simple: UInt8?
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = escaped
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw error(
                "invalid escape '\\\(scalar(at: backslash + 1))' in string; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX",
                at: backslash)
        }
        if let simple {
            value.append(simple)
            index += 2
            return
        }
        let scalar = byte(at: backslash + 2) == UInt8(ascii: "{")
            ? try readBracedUnicodeEscape(backslash) : try readFixedUnicodeEscape(backslash)
        value += Array(String(scalar).utf8)
    }

    /// `\u{1F600}`: any number of hex digits, up to U+10FFFF, not a surrogate.
    private mutating func readBracedUnicodeEscape(_ backslash: Int) throws(GraphQLSyntaxError) -> Unicode.Scalar {
        var cursor = backslash + 3
        var code: UInt32 = 0
        while let byte = byte(at: cursor), let digit = Hex.value(byte) {
            code = min(code * 16 + UInt32(digit), 0x110000)
            cursor += 1
        }
        guard cursor > backslash + 3, byte(at: cursor) == UInt8(ascii: "}") else {
            throw error("invalid Unicode escape '\(escapeText(backslash, cursor + 1))'; write it as \\u{1F600} or \\u00E9",
                        at: backslash)
        }
        guard let scalar = Unicode.Scalar(code) else {
            throw error("invalid Unicode escape '\(escapeText(backslash, cursor + 1))'; it is not a Unicode scalar value",
                        at: backslash)
        }
        index = cursor + 1
        return scalar
    }

    /// `\u00E9`, or a surrogate pair written as two escapes: `\uD83D\uDE00`.
    private mutating func readFixedUnicodeEscape(_ backslash: Int) throws(GraphQLSyntaxError) -> Unicode.Scalar {
        guard let code = fourHexDigits(at: backslash + 2) else {
            throw error("invalid Unicode escape '\(escapeText(backslash, backslash + 6))'; write it as \\u00E9 or \\u{1F600}",
                        at: backslash)
        }
        if let scalar = Unicode.Scalar(code) {
            index = backslash + 6
            return scalar
        }
        if code <= 0xDBFF, byte(at: backslash + 6) == UInt8(ascii: "\\"), byte(at: backslash + 7) == UInt8(ascii: "u"),
            let low = fourHexDigits(at: backslash + 8), (0xDC00...0xDFFF).contains(low),
            let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        {
            index = backslash + 12
            return scalar
        }
        throw error("invalid Unicode escape '\(escapeText(backslash, backslash + 6))'; a surrogate must be followed by its "
                    + "pair, or write the character as \\u{…}", at: backslash)
    }

    private func fourHexDigits(at start: Int) -> UInt32? {
        var code: UInt32 = 0
        for offset in start..<(start + 4) {
            guard let byte = byte(at: offset), let digit = Hex.value(byte) else { return nil }
            code = code * 16 + UInt32(digit)
        }
        return code
    }

    /// The source text of a bad escape for an error message: stops at a quote or line end, at most 16 bytes.
    private func escapeText(_ start: Int, _ end: Int) -> String {
        var stop = start + 1
        while stop < min(end, bytes.count, start + 16),
            bytes[stop] != UInt8(ascii: "\""), bytes[stop] != 0x0A, bytes[stop] != 0x0D
        {
            stop += 1
        }
        return text(start, stop)
    }

    /// `"""…"""`: raw text where only `\"""` is an escape, then the spec's indentation stripping.
    private mutating func readBlockString() throws(GraphQLSyntaxError) -> Token {
        let start = index
        index += 3
        var raw: [UInt8] = []
        var chunkStart = index
        let quote = UInt8(ascii: "\"")
        while true {
            guard index < bytes.count else {
                throw error("unterminated block string; close it with \"\"\"", at: start)
            }
            let byte = bytes[index]
            if byte == quote, self.byte(at: index + 1) == quote, self.byte(at: index + 2) == quote {
                raw += bytes[chunkStart..<index]
                index += 3
                let value = BlockString.value(ofRaw: raw)
                return Token(kind: .blockString, start: start, end: index, value: value)
            }
            if byte == UInt8(ascii: "\\"), self.byte(at: index + 1) == quote, self.byte(at: index + 2) == quote,
                self.byte(at: index + 3) == quote
            {
                raw += bytes[chunkStart..<index]
                raw += [quote, quote, quote]
                index += 4
                chunkStart = index
            } else {
                index += 1
            }
        }
    }

    // MARK: Helpers

    private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
    }

    /// The Unicode scalar starting at a byte offset (the input is valid UTF-8, as it came from a String).
    private func scalar(at offset: Int) -> Unicode.Scalar {
        guard offset < bytes.count else { return "\u{FFFD}" }
        var length = 1
        let lead = bytes[offset]
        if lead >= 0xF0 { length = 4 } else if lead >= 0xE0 { length = 3 } else if lead >= 0xC0 { length = 2 }
        return text(offset, offset + length).unicodeScalars.first ?? "\u{FFFD}"
    }
}

/// The block string algorithm of the spec (BlockStringValue): strip the common indentation of all
/// lines but the first, drop blank leading and trailing lines, and join lines with `\n`.
enum BlockString {
    static func value(ofRaw raw: [UInt8]) -> String {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0
        var index = 0
        while index < raw.count {
            if raw[index] == 0x0A || raw[index] == 0x0D {
                lines.append(raw[lineStart..<index])
                if raw[index] == 0x0D, index + 1 < raw.count, raw[index + 1] == 0x0A { index += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        lines.append(raw[lineStart..<raw.count])

        func indentation(_ line: ArraySlice<UInt8>) -> Int {
            line.prefix(while: { $0 == 0x20 || $0 == 0x09 }).count
        }
        var commonIndent: Int?
        for line in lines.dropFirst() {
            let indent = indentation(line)
            if indent < line.count, indent < (commonIndent ?? Int.max) { commonIndent = indent }
        }
        if let commonIndent {
            for position in lines.indices.dropFirst() { lines[position] = lines[position].dropFirst(commonIndent) }
        }
        let isBlank = { (line: ArraySlice<UInt8>) in indentation(line) == line.count }
        let first = lines.firstIndex(where: { !isBlank($0) }) ?? lines.count
        let last = lines.lastIndex(where: { !isBlank($0) }) ?? -1
        var joined: [UInt8] = []
        if first <= last {
            for position in first...last {
                if position > first { joined.append(0x0A) }
                joined += lines[position]
            }
        }
        return String(decoding: joined, as: UTF8.self)
    }
}
