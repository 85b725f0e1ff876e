import GQLCore
import Testing

/// The one helper that keeps a message on one safe line.
@Suite struct OneLineTests {
    @Test func lineBreaksAreEscapedJoinedOrCollapsed() {
        let text = "a\nb\u{2028}c\r\n\u{1B}[31m\td"
        #expect(text.oneLine() == "a\\nb\\u{2028}c\\r\\n\\u{1B}[31m\td")
        #expect("one\n\ntwo \u{1B}".oneLine(lineBreaks: .spaces) == "one two \\u{1B}")
        #expect("  one \n\t two  ".oneLine(lineBreaks: .collapsed) == "one two")
    }

    @Test func cutsCountCharacters() {
        #expect("服务器错误".oneLine(cut: .end(3)) == "服务器…")
        #expect("服务器".oneLine(cut: .end(3)) == "服务器")
        let long = String(repeating: "字", count: 11)
        #expect(long.oneLine(cut: .middle(10)) == "字字字字字字… (2 characters omitted) …字字字")
        #expect(String(long.dropLast()).oneLine(cut: .middle(10)) == String(long.dropLast()))
    }
}
