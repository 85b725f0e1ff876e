/// Reads Gen 1 `aws-exports.js` without running it: the object literal assigned in `const awsmobile = {…};`
/// (or the first object literal in the file) becomes JSON, which the legacy-config decoder then reads
/// (`aws_appsync_graphqlEndpoint`, `aws_appsync_region`, `aws_appsync_authenticationType`, `aws_appsync_apiKey`).
///
/// The literal may use quoted or bare keys, single- or double-quoted strings, numbers, `true`/`false`/`null`,
/// arrays, nested objects, trailing commas and comments; anything else (a function call, a variable) is an
/// error with its line and column.
enum AWSExportsReader {
    static func read(bytes: [UInt8], path: String) throws(SchemaError) -> JSONValue {
        var reader = LiteralReader(bytes: bytes, path: path)
        return try reader.readFile()
    }
}

private struct LiteralReader {
    let bytes: [UInt8]
    let path: String
    var index = 0

    init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    mutating func readFile() throws(SchemaError) -> JSONValue {
        // The first `{` outside comments and strings that follows `=`, or else the first `{` at all.
        var firstBrace: Int?
        var previous: UInt8 = 0
        while index < bytes.count {
            skipSpaceAndComments()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") {
                _ = try readString()
                previous = byte
                continue
            }
            if byte == UInt8(ascii: "{") {
                if previous == UInt8(ascii: "=") || previous == UInt8(ascii: "(") { return try readValue() }
                if firstBrace == nil { firstBrace = index }
            }
            previous = byte
            index += 1
        }
        guard let firstBrace else {
            throw SchemaError(file: path, location: "", message: "no object literal found; expected aws-exports.js's `const awsmobile = { … };`")
        }
        index = firstBrace
        return try readValue()
    }

    private mutating func readValue() throws(SchemaError) -> JSONValue {
        skipSpaceAndComments()
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"): return .string(try readString())
        default:
            let start = index
            while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null", "undefined": return .null
            default:
                if let number = JSONNumber(word) { return .number(number) }
                index = start
                throw error(word.isEmpty ? "unexpected character; expected a value" : "'\(word)' is not a literal value; gqlc reads aws-exports.js without running it")
            }
        }
    }

    private mutating func readObject() throws(SchemaError) -> JSONValue {
        index += 1
        var object = JSONObject()
        while true {
            skipSpaceAndComments()
            guard index < bytes.count else { throw error("unexpected end of file; expected '}'") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            let key: String
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                key = try readString()
            } else {
                let start = index
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                guard index > start else { throw error("expected a property name or '}'") }
                key = String(decoding: bytes[start..<index], as: UTF8.self)
            }
            skipSpaceAndComments()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after property '\(key)'") }
            index += 1
            object[key] = try readValue()
            skipSpaceAndComments()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
        }
    }

    private mutating func readArray() throws(SchemaError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        while true {
            skipSpaceAndComments()
            guard index < bytes.count else { throw error("unexpected end of file; expected ']'") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            elements.append(try readValue())
            skipSpaceAndComments()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
        }
    }

    /// A quoted string with JavaScript's common escapes; template literals without `${`.
    private mutating func readString() throws(SchemaError) -> String {
        let quote = bytes[index]
        let start = index
        index += 1
        var result: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            var byte = bytes[index]
            if quote == UInt8(ascii: "`"), byte == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                throw error("template substitutions are not literal values; gqlc reads aws-exports.js without running it")
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                index += 1
                byte = bytes[index]
                switch byte {
                case UInt8(ascii: "n"): byte = 0x0A
                case UInt8(ascii: "t"): byte = 0x09
                case UInt8(ascii: "r"): byte = 0x0D
                default: break
                }
            } else if byte == 0x0A, quote != UInt8(ascii: "`") {
                index = start
                throw error("unterminated string")
            }
            result.append(byte)
            index += 1
        }
        guard index < bytes.count else {
            index = start
            throw error("unterminated string")
        }
        index += 1
        return String(decoding: result, as: UTF8.self)
    }

    private mutating func skipSpaceAndComments() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0xEF || byte == 0xBB || byte == 0xBF {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index = min(bytes.count, index + 2)
            } else {
                return
            }
        }
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        ASCII.isNameContinue(byte) || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "+")
    }

    private func error(_ message: String) -> SchemaError {
        let position = SourceText(String(decoding: bytes, as: UTF8.self), fileName: path).locate(index).position
        return SchemaError(file: path, location: position.description, message: message)
    }
}
