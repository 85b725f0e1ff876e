import Testing
@testable import GQLCore

@Suite struct DocumentPrinterSmokeTests {
    @Test func printerEscapesStrings() {
        let document = Document(operations: [
            OperationDefinition(.query, name: "Q", selections: [
                .field(Field("f", arguments: [Argument("s", .string("a\"b\\c\n"))]))
            ])
        ])
        #expect(document.printed() == "query Q {\n  f(s: \"a\\\"b\\\\c\\n\")\n}")
    }
}
