/// Error messages that say what was found, what was expected, and where (line:column).
extension JSONParser {
    /// `unexpected character 'x'; expected …` at the current byte.
    func unexpected(expecting expected: String) -> JSONParseError {
        guard index < bytes.count else { return error("unexpected end of input; expected \(expected)") }
        let found = isUTF8Lead(at: index) ? "character '\(describeCharacter(at: index))'" : "byte \(hexByte(bytes[index]))"
        return error("unexpected \(found); expected \(expected)")
    }

    func unterminatedString(at quoteOffset: Int) -> JSONParseError {
        error("unterminated string: no closing '\"' before the end of the input", at: quoteOffset)
    }

    func controlCharacter(_ byte: UInt8) -> JSONParseError {
        let escape: String
        switch byte {
        case 0x0A: escape = "\\n"
        case 0x0D: escape = "\\r"
        case 0x09: escape = "\\t"
        default: escape = "\\u00" + hexDigits(byte)
        }
        return error("control character U+00\(hexDigits(byte)) must be escaped in a string; write \(escape)")
    }

    func invalidUTF8(at offset: Int) -> JSONParseError {
        error("invalid UTF-8 in string (byte \(hexByte(bytes[offset]))); the text must be encoded as UTF-8", at: offset)
    }

    /// The printable form of the character starting at `offset` (a control character as `\u00XX`).
    func describeCharacter(at offset: Int) -> String {
        let end = min(bytes.count, offset + 4)
        var iterator = UnsafeBufferPointer(rebasing: bytes[offset..<end]).makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        guard case .valid(let encoded) = parser.parseScalar(from: &iterator) else { return hexByte(bytes[offset]) }
        let scalar = Unicode.UTF8.decode(encoded)
        if scalar.value < 0x20 || scalar.value == 0x7F { return "\\u00" + hexDigits(UInt8(scalar.value)) }
        // Invisible and line-breaking characters (U+0085, U+2028, a lone combining mark …) are shown by code point.
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format
            || scalar.properties.generalCategory == .control || scalar.properties.isDefaultIgnorableCodePoint
            || Character(scalar).isNewline || scalar.properties.canonicalCombiningClass != .notReordered {
            return "U+" + String(scalar.value, radix: 16, uppercase: true)
        }
        return String(Character(scalar))
    }

    /// A JSONParseError at `offset` (default: the current byte), with its line and column.
    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<position where bytes[i] == JSONByte.newline {
            line += 1
            lineStart = i + 1
        }
        // Columns count characters: UTF-8 continuation bytes do not start one.
        var column = 1
        for i in lineStart..<position where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return JSONParseError(message: message, line: line, column: column, offset: position)
    }

    private func isUTF8Lead(at offset: Int) -> Bool {
        let end = min(bytes.count, offset + 4)
        var iterator = UnsafeBufferPointer(rebasing: bytes[offset..<end]).makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        if case .valid = parser.parseScalar(from: &iterator) { return true }
        return false
    }

    private func hexByte(_ byte: UInt8) -> String { "0x" + hexDigits(byte) }

    private func hexDigits(_ byte: UInt8) -> String { Hex.digits(byte, uppercase: true) }
}
