import GQLCore
import Testing

/// Deep nesting gives an error, never a stack overflow; writing and comparing never recurse.
@Suite struct JSONDepthTests {
    @Test func deepArraysAreRejectedAtTheLimit() throws {
        let text = String(repeating: "[", count: 100_000)
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error.message == "arrays and objects are nested more than 512 levels deep")
        #expect(error.line == 1)
        #expect(error.column == JSONValue.maximumDepth + 1)
    }

    @Test func deepObjectsAreRejectedAtTheLimit() throws {
        let text = String(repeating: #"{"a":"#, count: 100_000)
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error.message == "arrays and objects are nested more than 512 levels deep")
        #expect(error.column == 5 * JSONValue.maximumDepth + 1)
    }

    @Test func deepMixedNestingClosedProperlyIsStillRejected() throws {
        let text = String(repeating: #"[{"a":"#, count: 50_000) + "1" + String(repeating: "}]", count: 50_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func nestingUpToTheLimitParsesAndRoundTrips() throws {
        let depth = JSONValue.maximumDepth
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONValue.parse(arrays)
        #expect(value.serialized() == arrays)
        #expect(try JSONValue.parse(value.serialized(.pretty)) == value)

        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "[]" + String(repeating: "}", count: depth - 1)
        #expect(try JSONValue.parse(objects).serialized() == objects)
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[" + arrays + "]") }
    }

    /// Values built in code can be deeper than the parser allows; writing and `==` must cope.
    @Test func writingAndComparingVeryDeepValuesDoesNotRecurse() {
        let depth = 100_000
        var left = Self.deepValue(depth, leaf: 1)
        var right = Self.deepValue(depth, leaf: 1)
        var different = Self.deepValue(depth, leaf: 2)
        let equal = left == right
        let unequal = left != different
        #expect(equal)
        #expect(unequal)

        var writer = JSONWriter(style: .compact)
        writer.write(left)
        // 50,000 objects `{"k":…}`, 50,000 arrays `[…]` and the leaf.
        #expect(writer.bytes.count == 6 * depth / 2 + 2 * depth / 2 + 1)
        // Booleans, so that a failure does not print a 400 KB string.
        let text = writer.text
        let opensRight = text.hasPrefix(String(repeating: #"[{"k":"#, count: depth / 2))
        let closesRight = text.hasSuffix("1" + String(repeating: "}]", count: depth / 2))
        #expect(opensRight)
        #expect(closesRight)
        // (Pretty output grows with the square of the depth, so it is checked on a shallower value.)
        var shallower = Self.deepValue(2_000, leaf: 1)
        var pretty = JSONWriter(style: .pretty)
        pretty.write(shallower)
        let lastLine = pretty.text.split(separator: "\n").last.map(String.init)
        #expect(lastLine == "]")
        // The innermost member is the 2,000th level of nesting.
        let innermostIndented = pretty.text.contains("\n" + String(repeating: " ", count: 2 * 2_000) + "\"k\": 1\n")
        #expect(innermostIndented)
        Self.dismantle(&shallower)

        // Swift releases nested values recursively, so take them apart one level at a time.
        Self.dismantle(&left)
        Self.dismantle(&right)
        Self.dismantle(&different)
    }

    /// `[{"k":[{"k": … leaf … }]}]`, alternating arrays and objects.
    static func deepValue(_ depth: Int, leaf: Int) -> JSONValue {
        var value = JSONValue.number(JSONNumber(leaf))
        for level in 0..<depth {
            value = level % 2 == 0 ? .object(["k": value]) : .array([value])
        }
        return value
    }

    static func dismantle(_ value: inout JSONValue) {
        while true {
            switch value {
            case .array(let elements) where elements.count == 1: value = elements[0]
            case .object(let object) where object.count == 1: value = object.members[0].value
            default: return
            }
        }
    }
}
