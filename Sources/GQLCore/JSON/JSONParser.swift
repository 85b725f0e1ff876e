/// A JSON syntax error, with the 1-based line and column where it was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let line: Int
    public let column: Int
    /// Byte offset of the error in the input.
    public let offset: Int

    public var description: String { "\(line):\(column): \(message)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects that the parser accepts.
    public static let maximumDepth = 512

    /// Parses UTF-8 JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses UTF-8 JSON bytes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try parse(buffer) }
    }

    /// Parses UTF-8 JSON bytes in place.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(buffer)
        return try parser.parseDocument()
    }
}

private enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let newline = UInt8(ascii: "\n")
}

struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeByte(at: index)) after the JSON value") }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input; expected a value") }
        switch bytes[index] {
        case Byte.openBrace: return try parseObject()
        case Byte.openBracket: return try parseArray()
        case Byte.quote: return .string(try parseString())
        case Byte.minus, Byte.zero...Byte.nine: return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default: throw error("unexpected \(describeByte(at: index)); expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if peek() == Byte.closeBrace {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek() == Byte.quote else { throw error("unexpected \(describeByte(at: index)); expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == Byte.colon else { throw error("unexpected \(describeByte(at: index)); expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            object.appendUnchecked(key, value)
            skipWhitespace()
            switch peek() {
            case Byte.comma: index += 1
            case Byte.closeBrace:
                index += 1
                depth -= 1
                return .object(object)
            default: throw error("unexpected \(describeByte(at: index)); expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == Byte.closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case Byte.comma: index += 1
            case Byte.closeBracket:
                index += 1
                depth -= 1
                return .array(elements)
            default: throw error("unexpected \(describeByte(at: index)); expected ',' or ']'")
            }
        }
    }

    private mutating func enterNesting() throws(JSONParseError) {
        depth += 1
        if depth > JSONValue.maximumDepth {
            throw error("nesting is deeper than \(JSONValue.maximumDepth) levels")
        }
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        var asciiOnly = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return try makeString(slice, asciiOnly: asciiOnly, at: start)
            }
            if byte == Byte.backslash { break }
            if byte < 0x20 { throw error("control character in string; escape it as \\u00\(hex2(byte))") }
            if byte >= 0x80 { asciiOnly = false }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string", at: start - 1) }
        // Slow path: copy into a scratch buffer, decoding escapes.
        var scratch = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case Byte.quote:
                index += 1
                return try scratch.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try makeString(buffer, asciiOnly: false, at: start)
                }
            case Byte.backslash:
                try parseEscape(into: &scratch)
            default:
                if byte < 0x20 { throw error("control character in string; escape it as \\u00\(hex2(byte))") }
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unterminated string", at: start - 1)
    }

    private func makeString(_ slice: UnsafeBufferPointer<UInt8>, asciiOnly: Bool, at start: Int) throws(JSONParseError) -> String {
        if asciiOnly { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw error("string is not valid UTF-8", at: start)
        }
        return string
    }

    private mutating func parseEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
        index += 1
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case Byte.quote: scratch.append(Byte.quote)
        case Byte.backslash: scratch.append(Byte.backslash)
        case Byte.slash: scratch.append(Byte.slash)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == Byte.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))", at: index - 6)
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate", at: index - 6) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))", at: index - 6)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid unicode escape", at: index - 6) }
            scratch.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
        default:
            index -= 1
            throw error("invalid escape '\\\(describeByte(at: index, quoted: false))'", at: index - 1)
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case Byte.zero...Byte.nine: digit = UInt32(byte - Byte.zero)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: Numbers and literals

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if peek() == Byte.minus { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("invalid number: expected a digit") }
        index += 1
        if first == Byte.zero {
            if let next = peek(), isDigit(next) { throw error("invalid number: leading zero", at: start) }
        } else {
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == Byte.dot {
            index += 1
            guard let byte = peek(), isDigit(byte) else { throw error("invalid number: expected a digit after '.'") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            index += 1
            if let sign = peek(), sign == Byte.plus || sign == Byte.minus { index += 1 }
            guard let byte = peek(), isDigit(byte) else { throw error("invalid number: expected a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(uncheckedText: text)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard index + count <= bytes.count, memcmpEqual(expected, at: index) else {
            throw error("unexpected \(describeByte(at: index)); expected a value")
        }
        index += count
    }

    private func memcmpEqual(_ expected: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        for i in 0..<expected.count where bytes[offset + i] != expected[i] { return false }
        return true
    }

    // MARK: Helpers

    @inline(__always) private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }
    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte >= Byte.zero && byte <= Byte.nine }

    @inline(__always) private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private func describeByte(at offset: Int, quoted: Bool = true) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        let text: String
        if byte >= 0x20 && byte < 0x7F {
            text = String(UnicodeScalar(byte))
        } else {
            text = "\\u00" + hex2(byte)
        }
        return quoted ? "character '\(text)'" : text
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<position where bytes[i] == Byte.newline {
            line += 1
            lineStart = i + 1
        }
        // Column counts characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        for i in lineStart..<position where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return JSONParseError(message: message, line: line, column: column, offset: position)
    }
}
