import Foundation
import GQLCore
import Testing

@Suite struct JSONWriterTests {
    static let sample: JSONValue = [
        "id": "p1",
        "count": 3,
        "ok": true,
        "none": nil,
        "tags": ["a", "b"],
        "empty": [],
        "nested": ["inner": [:], "list": [[], [1]]],
    ]

    @Test func compactHasNoWhitespace() {
        #expect(Self.sample.serialized()
            == #"{"id":"p1","count":3,"ok":true,"none":null,"tags":["a","b"],"empty":[],"nested":{"inner":{},"list":[[],[1]]}}"#)
    }

    @Test func prettyIndentsTwoSpacesAndKeepsEmptyContainersOnOneLine() {
        let expected = """
            {
              "id": "p1",
              "count": 3,
              "ok": true,
              "none": null,
              "tags": [
                "a",
                "b"
              ],
              "empty": [],
              "nested": {
                "inner": {},
                "list": [
                  [],
                  [
                    1
                  ]
                ]
              }
            }
            """
        #expect(Self.sample.serialized(.pretty) == expected)
    }

    @Test func prettyScalarsAndEmptiesAtTheTopLevel() {
        #expect(JSONValue.null.serialized(.pretty) == "null")
        #expect(JSONValue.array([]).serialized(.pretty) == "[]")
        #expect(JSONValue.object(JSONObject()).serialized(.pretty) == "{}")
        #expect(JSONValue.string("x").serialized(.pretty) == "\"x\"")
    }

    @Test func indentLevelShiftsNestedLinesForStreaming() throws {
        var writer = JSONWriter(style: .pretty)
        writer.appendASCII("[")
        writer.newline(1)
        writer.write(["a": [1]], indentLevel: 1)
        writer.appendASCII(",")
        writer.newline(1)
        writer.writeString("b")
        writer.newline(0)
        writer.appendASCII("]")
        #expect(writer.text == "[\n  {\n    \"a\": [\n      1\n    ]\n  },\n  \"b\"\n]")
        #expect(try JSONValue.parse(writer.bytes) == [["a": [1]], "b"])
    }

    @Test func compactWriterIgnoresNewlinesAndAppendsSeveralValues() {
        var writer = JSONWriter(style: .compact)
        for index in 0..<1_000 {
            writer.newline(3)
            writer.write(["i": .number(JSONNumber(index))])
        }
        #expect(writer.bytes.count == (0..<1_000).map { #"{"i":\#($0)}"#.utf8.count }.reduce(0, +))
        #expect(writer.text.hasSuffix(#"{"i":998}{"i":999}"#))
    }

    /// RFC 8259: `"`, `\` and U+0000-U+001F must be escaped; short forms where they exist.
    @Test func escapesEveryControlCharacterQuoteAndBackslash() {
        let shortForms: [UInt8: String] = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
        for byte in UInt8(0)..<0x20 {
            let expected = shortForms[byte] ?? "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            let string = String(decoding: [byte], as: UTF8.self)
            #expect(JSONValue.string(string).serialized() == "\"\(expected)\"", "byte \(byte)")
        }
        #expect(JSONValue.string("a\"b\\c").serialized() == #""a\"b\\c""#)
    }

    @Test func keepsNonASCIISlashAndDeleteAsTheyAre() {
        let text = "/ é 東京 🚀 \u{7F} \u{2028} \u{10FFFF}"
        let written = JSONValue.string(text).serialized()
        #expect(written == "\"\(text)\"")
        #expect(Array(written.utf8) == [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")])
    }

    @Test func writesStringsFromFoundation() {
        let bridged = NSString(string: "a\"é\n") as String
        #expect(JSONValue.string(bridged).serialized() == #""a\"é\n""#)
        #expect(JSONValue.number(JSONNumber(NSString(string: "12.5") as String) ?? JSONNumber(0)).serialized() == "12.5")
    }

    @Test func escapesKeys() {
        let value: JSONValue = ["a\"b\n": 1, "ключ": 2]
        #expect(value.serialized() == #"{"a\"b\n":1,"ключ":2}"#)
    }

    /// Special bytes at every position of strings up to 40 bytes long, across the 8-byte scan words.
    @Test func findsSpecialBytesAtEveryOffset() throws {
        let specials: [(String, String)] = [("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\u{1}", "\\u0001"), ("\u{1F}", "\\u001f")]
        for length in 1...40 {
            for position in 0..<length {
                for (special, escaped) in specials {
                    let prefix = String(repeating: "a", count: position)
                    let suffix = String(repeating: "é", count: (length - position) / 2)
                    let string = prefix + special + suffix
                    let written = JSONValue.string(string).serialized()
                    #expect(written == "\"" + prefix + escaped + suffix + "\"")
                    #expect(try JSONValue.parse(written).stringValue == string)
                }
            }
        }
    }

    @Test func numbersAreWrittenAsTheirText() throws {
        let value = try JSONValue.parse("[12345678901234567890,1E+2,-0.0,0.1000]")
        #expect(value.serialized() == "[12345678901234567890,1E+2,-0.0,0.1000]")
        #expect(JSONValue.number(JSONNumber(Int64.min)).serialized() == "-9223372036854775808")
    }

    @Test func descriptionIsCompactJSON() {
        #expect(JSONValue(arrayLiteral: "a", 1, nil).description == #"["a",1,null]"#)
    }

    @Test func tenMegabyteStringsAreWrittenAndReadBack() throws {
        let string = String(repeating: "line \"one\"\tand\nunicode é🚀\\ ", count: 350_000)
        #expect(string.utf8.count > 10_000_000)
        let written = JSONValue.string(string).serialized()
        #expect(written.utf8.count == string.utf8.count + 2 + 5 * 350_000)
        #expect(try JSONValue.parse(written).stringValue == string)
    }
}
