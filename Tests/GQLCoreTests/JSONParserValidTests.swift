import Foundation
import GQLCore
import Testing

/// Documents the parser must accept, each with the compact JSON the writer gives back.
/// Written in the spirit of JSONTestSuite's `y_` cases.
@Suite struct JSONParserValidTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let input: String
        let compact: String
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        // Scalars at the top level.
        Case(input: "true", compact: "true"),
        Case(input: "false", compact: "false"),
        Case(input: "null", compact: "null"),
        Case(input: "0", compact: "0"),
        Case(input: "-0", compact: "-0"),
        Case(input: #""""#, compact: #""""#),
        Case(input: " \t\r\n 42 \n", compact: "42"),
        // Numbers keep their exact text.
        Case(input: "[-0.0]", compact: "[-0.0]"),
        Case(input: "[1E22]", compact: "[1E22]"),
        Case(input: "[1e-1]", compact: "[1e-1]"),
        Case(input: "[1.5e+10]", compact: "[1.5e+10]"),
        Case(input: "[-1E-2]", compact: "[-1E-2]"),
        Case(input: "[1.000]", compact: "[1.000]"),
        Case(input: "[1e400]", compact: "[1e400]"),
        Case(input: "[123456789012345678901234567890]", compact: "[123456789012345678901234567890]"),
        Case(input: "[-9223372036854775809]", compact: "[-9223372036854775809]"),
        Case(input: "[9007199254740993]", compact: "[9007199254740993]"),
        // Containers and whitespace.
        Case(input: "[]", compact: "[]"),
        Case(input: "{}", compact: "{}"),
        Case(input: " [ ] ", compact: "[]"),
        Case(input: "{ }", compact: "{}"),
        Case(input: "[[],{},[[]],{\"a\":{}}]", compact: "[[],{},[[]],{\"a\":{}}]"),
        Case(input: "[ 1 , 2 ,\n3 ]", compact: "[1,2,3]"),
        Case(input: "{ \"a\" : 1 , \"b\" :\t[ true , null ] }", compact: #"{"a":1,"b":[true,null]}"#),
        Case(input: #"{"":0}"#, compact: #"{"":0}"#),
        Case(input: #"{"z":1,"a":2,"m":3}"#, compact: #"{"z":1,"a":2,"m":3}"#),
        Case(input: #"{"a":1,"a":2}"#, compact: #"{"a":1,"a":2}"#),
        // A leading byte order mark is skipped.
        Case(input: "\u{FEFF}{\"a\":1}", compact: #"{"a":1}"#),
        // Escapes.
        Case(input: #"["\"\\\/\b\f\n\r\t"]"#, compact: #"["\"\\/\b\f\n\r\t"]"#),
        Case(input: #"["\u0061\u30af\u30EA\u30b9"]"#, compact: "[\"aクリス\"]"),
        Case(input: #"["\u0000\u001f\u007F"]"#, compact: "[\"\\u0000\\u001f\u{7F}\"]"),
        Case(input: #"["\uD83D\uDE00"]"#, compact: "[\"😀\"]"),
        Case(input: #"["\ud834\udd1e"]"#, compact: "[\"𝄞\"]"),
        Case(input: #"["\u00e9\u00E9"]"#, compact: "[\"éé\"]"),
        Case(input: #"["\u2028\u2029"]"#, compact: "[\"\u{2028}\u{2029}\"]"),
        Case(input: #"["a\/b"]"#, compact: #"["a/b"]"#),
        // Non-ASCII text as UTF-8: 2, 3 and 4 byte sequences, and the largest scalar.
        Case(input: "[\"café\"]", compact: "[\"café\"]"),
        Case(input: "[\"東京 データ\"]", compact: "[\"東京 データ\"]"),
        Case(input: "[\"🚀✓\"]", compact: "[\"🚀✓\"]"),
        Case(input: "[\"\u{10FFFF}\"]", compact: "[\"\u{10FFFF}\"]"),
        Case(input: "{\"ключ\":\"значение\"}", compact: "{\"ключ\":\"значение\"}"),
        // DEL and other non-control ASCII need no escape.
        Case(input: "[\"\u{7F}~\"]", compact: "[\"\u{7F}~\"]"),
    ]

    @Test(arguments: cases)
    func parsesAndWritesBack(_ testCase: Case) throws {
        let value = try JSONValue.parse(testCase.input)
        #expect(value.serialized() == testCase.compact)
        #expect(try JSONValue.parse(value.serialized()) == value)
        #expect(try JSONValue.parse(value.serialized(.pretty)) == value)
    }

    @Test func bigNumbersAreNotRoundedThroughDouble() throws {
        let value = try JSONValue.parse(#"{"id":9223372036854775807,"min":-9223372036854775808,"big":12345678901234567890,"pi":3.141592653589793238462643383279}"#)
        #expect(value["id"]?.numberText == "9223372036854775807")
        guard case .number(let id) = value["id"], case .number(let min) = value["min"], case .number(let big) = value["big"] else {
            Issue.record("expected numbers in \(value)")
            return
        }
        #expect(id.int64Value == Int64.max)
        #expect(min.int64Value == Int64.min)
        #expect(big.int64Value == nil)
        #expect(big.text == "12345678901234567890")
        #expect(value["pi"]?.numberText == "3.141592653589793238462643383279")
    }

    @Test func parsesStringsBytesAndBuffers() throws {
        let text = #"  {"a":[1,"é",null]} "#
        let expected: JSONValue = ["a": [1, "é", nil]]
        #expect(try JSONValue.parse(text) == expected)
        #expect(try JSONValue.parse(Array(text.utf8)) == expected)
        // A buffer into the middle of a larger array (bytes read in place, as the file reader hands them over).
        let padded = Array("xxxx".utf8) + Array(text.utf8)
        #expect(try padded.withUnsafeBufferPointer { try JSONValue.parse(UnsafeBufferPointer(rebasing: $0.dropFirst(4))) } == expected)
        // A String that is a substring's copy, and one bridged from NSString, parse the same.
        #expect(try JSONValue.parse(String(Substring(text))) == expected)
        #expect(try JSONValue.parse(NSString(string: text) as String) == expected)
        // Empty input of every kind is an error, not a crash.
        #expect(throws: JSONParseError.self) { try JSONValue.parse([UInt8]()) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(UnsafeBufferPointer<UInt8>(start: nil, count: 0)) }
    }

    @Test func duplicateKeysAreKeptAndTheLastOneWinsOnLookup() throws {
        let value = try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(value.objectValue?.count == 3)
        #expect(value["a"]?.numberText == "3")
        #expect(value.objectValue?.keys == ["a", "b", "a"])
    }

    @Test func tenMegabyteStringsParse() throws {
        let plain = String(repeating: "abcdefghij", count: 1_000_000)
        #expect(try JSONValue.parse("\"\(plain)\"").stringValue == plain)

        // Escapes and multi-byte characters scattered through a long string.
        let unit = "héllo \\\"wörld\\\" \\n 🚀 \\u00e9 "
        let decodedUnit = "héllo \"wörld\" \n 🚀 é "
        let count = 10_000_000 / unit.utf8.count
        let parsed = try JSONValue.parse("[\"" + String(repeating: unit, count: count) + "\"]")
        #expect(parsed[0]?.stringValue == String(repeating: decodedUnit, count: count))
    }

    @Test func largeArraysAndObjectsKeepEveryElementInOrder() throws {
        let numbers = (0..<100_000).map(String.init)
        let array = try JSONValue.parse("[" + numbers.joined(separator: ",") + "]")
        #expect(array.arrayValue?.compactMap(\.numberText) == numbers)
        let members = (0..<10_000).map { "\"k\($0)\":\($0)" }
        let object = try JSONValue.parse("{" + members.joined(separator: ",") + "}")
        #expect(object.objectValue?.keys == (0..<10_000).map { "k\($0)" })
        #expect(object["k9999"]?.numberText == "9999")
    }
}
