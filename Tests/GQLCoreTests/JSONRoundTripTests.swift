import GQLCore
import Testing

/// Written JSON parses back to an equal value, for generated values of every kind.
@Suite struct JSONRoundTripTests {
    /// A deterministic generator of varied JSON values.
    struct ValueGenerator {
        private var state: UInt64

        init(seed: UInt64) { state = seed }

        private mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        private static let pieces = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "東", "😀", "\u{2028}", "\u{FEFF}", "abcdefgh"]
        private static let numbers = ["0", "-0", "1", "-1", "3.25", "1e10", "-2.5E-3", "9223372036854775807", "123456789012345678901234567890", "0.000001"]

        mutating func string() -> String {
            (0..<next(12)).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
        }

        mutating func value(depth: Int = 0) -> JSONValue {
            switch next(depth > 4 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(next(2) == 0)
            case 2: return .number(JSONNumber(Self.numbers[next(Self.numbers.count)]) ?? JSONNumber(0))
            case 3, 4: return .string(string())
            case 5: return .array((0..<next(6)).map { _ in value(depth: depth + 1) })
            default:
                var object = JSONObject()
                for _ in 0..<next(6) { object[string()] = value(depth: depth + 1) }
                return .object(object)
            }
        }
    }

    @Test(arguments: [JSONStyle.compact, .pretty])
    func generatedValuesSurviveARoundTrip(style: JSONStyle) throws {
        var generator = ValueGenerator(seed: 42)
        for _ in 0..<500 {
            let value = generator.value()
            let text = value.serialized(style)
            let parsed = try JSONValue.parse(text)
            #expect(parsed == value, "\(text)")
            // Writing is deterministic: the parsed copy writes the same bytes.
            #expect(parsed.serialized(style) == text)
        }
    }

    @Test func parsedDocumentsWriteBackByteForByteWhenCompact() throws {
        let text = #"{"data":{"listPosts":{"items":[{"id":"p1","title":"Héllo \"wörld\"\n","rating":4.50,"views":12345678901234567890,"tags":["a","b"],"meta":{"ok":true,"none":null}}],"nextToken":null}}}"#
        #expect(try JSONValue.parse(text).serialized() == text)
    }

    @Test func everyScalarBelowTheSurrogatesAndSomeAboveRoundTripAsEscapesAndAsUTF8() throws {
        for value in stride(from: 0, to: 0x11_0000, by: 7) {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            let string = String(Character(scalar))
            let viaWriter = try JSONValue.parse(JSONValue.string(string).serialized())
            #expect(viaWriter.stringValue == string)
            if value < 0x10000 {
                let hex = String(value, radix: 16)
                let escape = "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "\""
                #expect(try JSONValue.parse(escape).stringValue == string)
            } else {
                let offset = UInt32(value - 0x10000)
                let high = String(0xD800 + (offset >> 10), radix: 16)
                let low = String(0xDC00 + (offset & 0x3FF), radix: 16)
                #expect(try JSONValue.parse("\"\\u\(high)\\u\(low)\"").stringValue == string)
            }
        }
    }
}
