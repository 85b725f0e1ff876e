/// A JSON syntax error, with the 1-based line and column where it was found.
///
/// `description` reads `line:column: message`, so callers can prefix a file name:
/// `response.json:3:17: unexpected character 'x'; expected ',' or '}'`.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in one line.
    public let message: String
    /// 1-based line number; lines end at `\n`.
    public let line: Int
    /// 1-based column, counted in Unicode characters (not bytes) from the start of the line.
    public let column: Int
    /// 0-based byte offset of the error in the input.
    public let offset: Int

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "\(line):\(column): \(message)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects that the parser accepts.
    public static let maximumDepth = 512

    /// Parses JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in Result { () throws(JSONParseError) in try parse(buffer) } }
        return try result.get()
    }

    /// Parses UTF-8 JSON bytes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try parse(buffer) }
    }

    /// Parses UTF-8 JSON bytes in place. A leading UTF-8 byte order mark is skipped.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            throw JSONParseError(message: "unexpected end of input; expected a value", line: 1, column: 1, offset: 0)
        }
        var parser = JSONParser(base: base, count: buffer.count)
        return try parser.parseDocument()
    }
}
