extension JSONParser {
    // MARK: Strings

    /// Reads a string starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let quoteOffset = index
        let contentStart = index + 1
        // Fast path: find the closing quote a word at a time, noting any non-ASCII byte on the way.
        var end = contentStart
        var orOfBytes: UInt64 = 0
        while end + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)
            if JSONByteScan.hasSpecialByte(word) { break }
            orOfBytes |= word
            end += 8
        }
        while end < bytes.count, !JSONByteScan.isSpecial(bytes[end]) {
            orOfBytes |= UInt64(bytes[end])
            end += 1
        }
        guard end < bytes.count else { throw unterminatedString(at: quoteOffset) }
        index = end
        guard bytes[end] == JSONByte.quote else { return try parseEscapedString(from: contentStart, quote: quoteOffset) }
        index += 1
        let content = UnsafeBufferPointer(start: base + contentStart, count: end - contentStart)
        if JSONByteScan.isASCII(orOfBytes) { return String(decoding: content, as: UTF8.self) }
        return try makeString(validating: content, input: contentStart..<end)
    }

    /// Continues a string at its first escape or control character, decoding into `scratch`.
    private mutating func parseEscapedString(from contentStart: Int, quote quoteOffset: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = contentStart
        while index < bytes.count {
            if runStart < index {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
            }
            let byte = bytes[index]
            switch byte {
            case JSONByte.quote:
                index += 1
                let input = contentStart..<(index - 1)
                return try scratch.withUnsafeBufferPointer { decoded throws(JSONParseError) in
                    try makeString(validating: decoded, input: input)
                }
            case JSONByte.backslash:
                try parseEscape()
            default:
                throw controlCharacter(byte)
            }
            runStart = index
            index = JSONByteScan.firstSpecial(in: base, from: index, to: bytes.count)
        }
        throw unterminatedString(at: quoteOffset)
    }

    /// Makes a string from UTF-8 that the standard library validates. When it is invalid, the error
    /// points at the first bad byte of `input`, the string's bytes in the input (escapes decode to
    /// valid UTF-8, so a bad byte in a decoded string is always one of the input's own).
    private func makeString(validating utf8: UnsafeBufferPointer<UInt8>, input: Range<Int>) throws(JSONParseError) -> String {
        if let string = String(validating: utf8, as: UTF8.self) { return string }
        let offset = JSONByteScan.firstInvalidUTF8(in: base, from: input.lowerBound, to: input.upperBound)
        throw invalidUTF8(at: offset ?? input.lowerBound)
    }

    /// Decodes one escape sequence, starting at its backslash, onto `scratch`.
    private mutating func parseEscape() throws(JSONParseError) {
        let escapeOffset = index
        index += 1
        guard let byte = peek() else { throw unterminatedString(at: escapeOffset) }
        index += 1
        switch byte {
        case JSONByte.quote, JSONByte.backslash, JSONByte.slash: scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xDC00...0xDFFF).contains(scalar) {
                throw error("lone low surrogate \\u\(hex(scalar)); it must follow a high surrogate \\uD800-\\uDBFF", at: escapeOffset)
            }
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == JSONByte.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("lone high surrogate \\u\(hex(scalar)); it must be followed by a low surrogate \\uDC00-\\uDFFF", at: escapeOffset)
                }
                let lowOffset = index
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("\\u\(hex(low)) is not a low surrogate; \\u\(hex(scalar)) must be followed by \\uDC00-\\uDFFF", at: lowOffset)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            index -= 1
            throw error("invalid escape '\\\(describeCharacter(at: index))'; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", at: escapeOffset)
        }
    }

    /// Reads the four hex digits of a `\u` escape.
    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw unexpected(expecting: "4 hex digits after \\u") }
            guard let digit = Hex.value(byte) else { throw unexpected(expecting: "4 hex digits after \\u") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Appends a scalar (never a surrogate) as 1 to 4 UTF-8 bytes.
    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: Numbers and literals

    /// Reads a number, keeping its text: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == JSONByte.minus { index += 1 }
        guard let first = peek(), isDigit(first) else { throw unexpected(expecting: "a digit after '-'") }
        index += 1
        if first == JSONByte.zero {
            if let next = peek(), isDigit(next) { throw error("invalid number: a leading zero must not be followed by digits", at: start) }
        } else {
            skipDigits()
        }
        if peek() == JSONByte.dot {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw unexpected(expecting: "a digit after '.'") }
            skipDigits()
        }
        if let byte = peek(), byte | 0x20 == UInt8(ascii: "e") {
            index += 1
            if let sign = peek(), sign == JSONByte.plus || sign == JSONByte.minus { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw unexpected(expecting: "a digit in the exponent") }
            skipDigits()
        }
        let text = UnsafeBufferPointer(start: base + start, count: index - start)
        return JSONNumber(uncheckedText: String(decoding: text, as: UTF8.self))
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte &- JSONByte.zero < 10 }

    @inline(__always) private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    /// Reads `true`, `false` or `null`.
    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard peek() == byte else { throw unexpected(expecting: "'\(literal)'") }
            index += 1
        }
    }
}
