import GQLCore
import Testing

@Suite struct JSONObjectTests {
    @Test func keepsInsertionOrderAndReplacesInPlace() {
        var object: JSONObject = ["z": 1, "a": 2]
        object["m"] = 3
        object["z"] = 4
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["z"] == 4)
        object["a"] = nil
        #expect(object.keys == ["z", "m"])
        #expect(object["a"] == nil)
        #expect(object.count == 2)
    }

    @Test func duplicateKeysUseTheLastMemberAndRemovingDropsAll() {
        var object = JSONObject([.init(key: "a", value: 1), .init(key: "b", value: 2), .init(key: "a", value: 3)])
        #expect(object["a"] == 3)
        object["a"] = 5
        #expect(object.members.map(\.value) == [1, 2, 5])
        object["a"] = nil
        #expect(object.keys == ["b"])
    }

    @Test func equalityDependsOnOrder() throws {
        #expect(try JSONValue.parse(#"{"a":1,"b":2}"#) == ["a": 1, "b": 2])
        #expect(try JSONValue.parse(#"{"a":1,"b":2}"#) != ["b": 2, "a": 1])
        #expect(["a": 1] as JSONObject == ["a": 1])
        #expect(["a": 1] as JSONObject != ["a": 2])
    }

    @Test func valueAccessors() throws {
        let value = try JSONValue.parse(#"{"s":"x","n":1.5,"b":false,"a":[null],"o":{}}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.numberText == "1.5")
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?[0]?.isNull == true)
        #expect(value["a"]?[1] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["o"]?.objectValue?.isEmpty == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?["x"] == nil)
        #expect(value.kindDescription == "an object")
    }
}

@Suite struct JSONEqualityTests {
    @Test func comparesKindsScalarsAndContainers() throws {
        let values: [JSONValue] = [nil, true, false, 1, "1", [], [:], [1], ["a": 1], ["a": "1"], [[1]], [[2]], ["a": ["b": 1]], ["a": ["b": 2]]]
        for (i, a) in values.enumerated() {
            for (j, b) in values.enumerated() {
                #expect((a == b) == (i == j), "\(a) vs \(b)")
            }
        }
    }

    @Test func numbersCompareByText() throws {
        #expect(try JSONValue.parse("1.0") != JSONValue.parse("1"))
        #expect(try JSONValue.parse("1e2") == JSONValue.parse("1e2"))
    }

    @Test func differencesDeepInsideLargeValuesAreFound() throws {
        let base = (0..<2_000).map { #"{"id":\#($0),"tags":["a","b"],"meta":{"n":[1,2,{"x":null}]}}"# }
        var changed = base
        changed[1_999] = #"{"id":1999,"tags":["a","b"],"meta":{"n":[1,2,{"x":false}]}}"#
        let left = try JSONValue.parse("[" + base.joined(separator: ",") + "]")
        #expect(left == (try JSONValue.parse("[" + base.joined(separator: ",") + "]")))
        #expect(left != (try JSONValue.parse("[" + changed.joined(separator: ",") + "]")))
    }
}

@Suite struct JSONNumberTests {
    @Test(arguments: [
        ("0", true), ("-0", true), ("12", true), ("-12.5e+3", true), ("1E5", true), ("0.0", true),
        ("", false), ("-", false), ("01", false), ("1.", false), (".1", false), ("1e", false), ("+1", false),
        ("1e+", false), ("0x10", false), (" 1", false), ("1 ", false), ("NaN", false), ("١", false),
    ])
    func validatesLiterals(text: String, valid: Bool) {
        #expect(JSONNumber.isValidLiteral(text) == valid)
        #expect((JSONNumber(text) != nil) == valid)
    }

    @Test func convertsToSwiftNumbers() throws {
        #expect(JSONNumber("9223372036854775807")?.int64Value == Int64.max)
        #expect(JSONNumber("9223372036854775808")?.int64Value == nil)
        #expect(JSONNumber("12345678901234567890")?.doubleValue == 12345678901234567890.0)
        #expect(JSONNumber("2.5")?.intValue == nil)
        #expect(JSONNumber("2.5")?.isInteger == false)
        #expect(JSONNumber("25E1")?.isInteger == false)
        #expect(JSONNumber("-25")?.isInteger == true)
    }

    @Test func doublesPrintShortestAndFiniteOnly() {
        #expect(JSONNumber(1.0).text == "1")
        #expect(JSONNumber(-0.0).text == "0")
        #expect(JSONNumber(0.1).text == "0.1")
        #expect(JSONNumber(1e20).text == "1e+20")
        #expect(JSONNumber(Double.nan).text == "0")
        #expect(JSONNumber(Double.infinity).text == "0")
        for value in [0.1, 1e20, Double.leastNonzeroMagnitude, 123.456, -1.5e-7] {
            #expect(JSONNumber.isValidLiteral(JSONNumber(value).text))
            #expect(JSONNumber(value).doubleValue == value)
        }
    }
}
