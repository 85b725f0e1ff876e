import Testing
@testable import GQLCore

@Suite struct JSONSmokeTests {
    @Test func roundTripKeepsOrderAndNumberText() throws {
        let text = #"{"z":1,"a":[true,null,"x\n"],"big":12345678901234567890}"#
        let value = try JSONValue.parse(text)
        #expect(value.serialized() == text)
        #expect(value["big"]?.numberText == "12345678901234567890")
    }

    @Test func printerEscapesStrings() {
        let document = Document(operations: [
            OperationDefinition(.query, name: "Q", selections: [
                .field(Field("f", arguments: [Argument("s", .string("a\"b\\c\n"))]))
            ])
        ])
        #expect(document.printed() == "query Q {\n  f(s: \"a\\\"b\\\\c\\n\")\n}")
    }
}
