import Foundation
import GQLCore
import Testing

/// Documents the parser must reject, with the message and the 1-based line:column of the error.
/// Written in the spirit of JSONTestSuite's `n_` cases.
@Suite struct JSONParserErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let input: [UInt8]
        let message: String
        /// The column on line 1 (multi-line documents have their own tests below).
        let column: Int

        init(_ input: String, _ message: String, _ column: Int) {
            self.init(bytes: Array(input.utf8), message, column)
        }

        init(bytes: [UInt8], _ message: String, _ column: Int) {
            self.input = bytes
            self.message = message
            self.column = column
        }

        var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }
    }

    static let cases: [Case] = [
        // Empty input and stray structure.
        Case("", "unexpected end of input; expected a value", 1),
        Case("   ", "unexpected end of input; expected a value", 4),
        Case("\u{FEFF}", "unexpected end of input; expected a value", 2),
        Case("[", "unexpected end of input; expected a value", 2),
        Case("[1", "unexpected end of input; expected ',' or ']'", 3),
        Case("[1,", "unexpected end of input; expected a value", 4),
        Case("{", "unexpected end of input; expected a string key in double quotes", 2),
        Case(#"{"a""#, "unexpected end of input; expected ':' after the key", 5),
        Case(#"{"a":"#, "unexpected end of input; expected a value", 6),
        Case(#"{"a":1"#, "unexpected end of input; expected ',' or '}'", 7),
        Case("]", "unexpected character ']'; expected a value", 1),
        Case("[1,]", "unexpected character ']'; expected a value", 4),
        Case("[,1]", "unexpected character ','; expected a value", 2),
        Case("[1,,2]", "unexpected character ','; expected a value", 4),
        Case("[1 2]", "unexpected character '2'; expected ',' or ']'", 4),
        Case("[1:2]", "unexpected character ':'; expected ',' or ']'", 3),
        Case("[1}", "unexpected character '}'; expected ',' or ']'", 3),
        Case(#"{"a":1]"#, "unexpected character ']'; expected ',' or '}'", 7),
        Case(#"{"a":1 "b":2}"#, "unexpected character '\"'; expected ',' or '}'", 8),
        Case(#"{"a":1,}"#, "unexpected character '}'; expected a string key in double quotes", 8),
        Case("{,}", "unexpected character ','; expected a string key in double quotes", 2),
        Case(#"{"a" 1}"#, "unexpected character '1'; expected ':' after the key", 6),
        Case(#"{"a"}"#, "unexpected character '}'; expected ':' after the key", 5),
        Case(#"{"a":}"#, "unexpected character '}'; expected a value", 6),
        Case("{a:1}", "unexpected character 'a'; expected a string key in double quotes", 2),
        Case("{'a':1}", "unexpected character '''; expected a string key in double quotes", 2),
        Case("{1:1}", "unexpected character '1'; expected a string key in double quotes", 2),
        Case("[1]]", "unexpected character ']'; expected the end of the input after the JSON value", 4),
        Case("[1] x", "unexpected character 'x'; expected the end of the input after the JSON value", 5),
        Case("{}{}", "unexpected character '{'; expected the end of the input after the JSON value", 3),
        Case("1 2", "unexpected character '2'; expected the end of the input after the JSON value", 3),
        Case("['a']", "unexpected character '''; expected a value", 2),
        Case("[1,\u{0}2]", "unexpected character '\\u0000'; expected a value", 4),
        // Literals.
        Case("[tru]", "unexpected character ']'; expected 'true'", 5),
        Case("[True]", "unexpected character 'T'; expected a value", 2),
        Case("[fals", "unexpected end of input; expected 'false'", 6),
        Case("[nul1]", "unexpected character '1'; expected 'null'", 5),
        Case("nulll", "unexpected character 'l'; expected the end of the input after the JSON value", 5),
        Case("[NaN]", "unexpected character 'N'; expected a value", 2),
        Case("[Infinity]", "unexpected character 'I'; expected a value", 2),
        Case("[-Infinity]", "unexpected character 'I'; expected a digit after '-'", 3),
        // Numbers.
        Case("[01]", "invalid number: a leading zero must not be followed by digits", 2),
        Case("[-01]", "invalid number: a leading zero must not be followed by digits", 2),
        Case("[-]", "unexpected character ']'; expected a digit after '-'", 3),
        Case("-", "unexpected end of input; expected a digit after '-'", 2),
        Case("[+1]", "unexpected character '+'; expected a value", 2),
        Case("[.5]", "unexpected character '.'; expected a value", 2),
        Case("[1.]", "unexpected character ']'; expected a digit after '.'", 4),
        Case("[1.e5]", "unexpected character 'e'; expected a digit after '.'", 4),
        Case("[1e]", "unexpected character ']'; expected a digit in the exponent", 4),
        Case("[1e+]", "unexpected character ']'; expected a digit in the exponent", 5),
        Case("[1E-x]", "unexpected character 'x'; expected a digit in the exponent", 5),
        Case("[0x1F]", "unexpected character 'x'; expected ',' or ']'", 3),
        Case("[1_000]", "unexpected character '_'; expected ',' or ']'", 3),
        // Strings.
        Case(#""abc"#, "unterminated string: no closing '\"' before the end of the input", 1),
        Case(#"["abc\"]"#, "unterminated string: no closing '\"' before the end of the input", 2),
        Case(#"["a\"#, "unterminated string: no closing '\"' before the end of the input", 4),
        Case("[\"a\tb\"]", "control character U+0009 must be escaped in a string; write \\t", 4),
        Case("[\"a\nb\"]", "control character U+000A must be escaped in a string; write \\n", 4),
        Case("\"\u{1}\"", "control character U+0001 must be escaped in a string; write \\u0001", 2),
        Case("\"\\n\u{1F}\"", "control character U+001F must be escaped in a string; write \\u001F", 4),
        Case(#""\x""#, "invalid escape '\\x'; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", 2),
        Case(#""\'""#, "invalid escape '\\''; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", 2),
        Case(#""\U0041""#, "invalid escape '\\U'; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", 2),
        Case(#""\u12""#, "unexpected character '\"'; expected 4 hex digits after \\u", 6),
        Case(#""\u00A""#, "unexpected character '\"'; expected 4 hex digits after \\u", 7),
        Case(#""\uqqqq""#, "unexpected character 'q'; expected 4 hex digits after \\u", 4),
        Case(#""\u"#, "unexpected end of input; expected 4 hex digits after \\u", 4),
        Case(#""\uD800""#, "lone high surrogate \\uD800; it must be followed by a low surrogate \\uDC00-\\uDFFF", 2),
        Case(#""\uD800x""#, "lone high surrogate \\uD800; it must be followed by a low surrogate \\uDC00-\\uDFFF", 2),
        Case(#""\uD800\n""#, "lone high surrogate \\uD800; it must be followed by a low surrogate \\uDC00-\\uDFFF", 2),
        Case(#""\uDFFF""#, "lone low surrogate \\uDFFF; it must follow a high surrogate \\uD800-\\uDBFF", 2),
        Case(#""ab\uD83D\u0041""#, "\\u0041 is not a low surrogate; \\uD83D must be followed by \\uDC00-\\uDFFF", 10),
        Case(#""\uD83D\uD83D""#, "\\uD83D is not a low surrogate; \\uD83D must be followed by \\uDC00-\\uDFFF", 8),
        // Invalid UTF-8: a bad byte, overlong forms, an encoded surrogate, beyond U+10FFFF, truncation.
        Case(bytes: [0x22, 0xC3, 0x28, 0x22], "invalid UTF-8 in string (byte 0xC3); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0x61, 0x80, 0x22], "invalid UTF-8 in string (byte 0x80); the text must be encoded as UTF-8", 3),
        Case(bytes: [0x22, 0xC0, 0x80, 0x22], "invalid UTF-8 in string (byte 0xC0); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0xE0, 0x80, 0x80, 0x22], "invalid UTF-8 in string (byte 0xE0); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 in string (byte 0xED); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 in string (byte 0xF4); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "invalid UTF-8 in string (byte 0xF5); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0xFF, 0x22], "invalid UTF-8 in string (byte 0xFF); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0xE2, 0x82, 0x22], "invalid UTF-8 in string (byte 0xE2); the text must be encoded as UTF-8", 2),
        Case(bytes: [0x22, 0xF0, 0x9F, 0x98, 0x22], "invalid UTF-8 in string (byte 0xF0); the text must be encoded as UTF-8", 2),
        // Past the first 8-byte word, after valid multi-byte characters, and after an escape.
        Case(bytes: Array("\"abcdefghé".utf8) + [0xFE, 0x22], "invalid UTF-8 in string (byte 0xFE); the text must be encoded as UTF-8", 11),
        Case(bytes: Array("[\"\\n é".utf8) + [0xC3, 0x22, 0x5D], "invalid UTF-8 in string (byte 0xC3); the text must be encoded as UTF-8", 7),
        // Non-ASCII outside strings is named as a character, or as a byte when it is not UTF-8.
        Case("[é]", "unexpected character 'é'; expected a value", 2),
        Case("{\"a\":1}😀", "unexpected character '😀'; expected the end of the input after the JSON value", 8),
        Case(bytes: [0x5B, 0xFF, 0x5D], "unexpected byte 0xFF; expected a value", 2),
    ]

    @Test(arguments: cases)
    func rejectsWithMessageAndPosition(_ testCase: Case) {
        do {
            let value = try JSONValue.parse(testCase.input)
            Issue.record("parsed \(value), expected an error")
        } catch {
            #expect(error.message == testCase.message)
            #expect(error.line == 1)
            #expect(error.column == testCase.column)
        }
    }

    @Test func linesAndColumnsCountNewlinesAndCharacters() throws {
        let text = "{\n  \"title\": \"héllo\",\n  \"tags\": [\"東京\", x]\n}"
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error.line == 3)
        // Columns count characters: 東京 is 2 columns though 6 bytes.
        #expect(error.column == 18)
        #expect(error.description == "3:18: unexpected character 'x'; expected a value")
        #expect(Array(text.utf8)[error.offset] == UInt8(ascii: "x"))
    }

    @Test func windowsLineEndingsCountOneLineEach() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse("[\r\n1,\r\n2,\r\n]") }
        #expect(error.line == 4)
        #expect(error.column == 1)
    }

    @Test func errorsInsideLongDocumentsPointAtTheRightLine() throws {
        var lines = (0..<5_000).map { "  {\"id\": \($0), \"name\": \"item \($0)\"}," }
        lines[4_321] = "  {\"id\": 4321, \"name\": \"item\" \"oops\"},"
        let text = "[\n" + lines.joined(separator: "\n") + "\n  null\n]"
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error.line == 4_323)
        #expect(error.column == 31)
        #expect(error.message == "unexpected character '\"'; expected ',' or '}'")
    }
}
