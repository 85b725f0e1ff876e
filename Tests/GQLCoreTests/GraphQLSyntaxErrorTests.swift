import Testing
@testable import GQLCore

/// A malformed document and the error the parser must report for it.
struct MalformedDocument: Sendable, CustomTestStringConvertible {
    let source: String
    let line: Int
    let column: Int
    let message: String
    var testDescription: String { source.debugDescription }

    init(_ source: String, _ line: Int, _ column: Int, _ message: String) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }
}

/// The error that parsing `source` throws, or nil when it parses.
func syntaxError(_ source: String, fileName: String? = nil) -> GraphQLSyntaxError? {
    do {
        _ = try ParsedDocument(parsing: source, fileName: fileName)
        return nil
    } catch {
        return error
    }
}

@Suite struct GraphQLSyntaxErrorTests {
    static let malformed: [MalformedDocument] = [
        // Empty documents.
        MalformedDocument("", 1, 1, "the document is empty; expected a query, mutation, subscription or fragment"),
        MalformedDocument("  # only a comment\n", 2, 1, "the document is empty; expected a query, mutation, subscription or fragment"),
        // Strings.
        MalformedDocument("{ hero(id: \"1000) { name } }", 1, 12, "unterminated string; close it with '\"' before the end of the line"),
        MalformedDocument("{ f(a: \"line\nbreak\") }", 1, 8, "unterminated string; close it with '\"' before the end of the line"),
        MalformedDocument("{ f(a: \"\\", 1, 8, "unterminated string; close it with '\"' before the end of the line"),
        MalformedDocument("{ f(a: \"\"\"never closed\n", 1, 8, "unterminated block string; close it with \"\"\""),
        MalformedDocument("{ f(a: \"\\q\") }", 1, 9, "invalid escape '\\q' in string; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX"),
        MalformedDocument("{ f(a: \"\\u12G4\") }", 1, 9, "invalid Unicode escape '\\u12G4'; write it as \\u00E9 or \\u{1F600}"),
        MalformedDocument("{ f(a: \"\\u{}\") }", 1, 9, "invalid Unicode escape '\\u{}'; write it as \\u{1F600} or \\u00E9"),
        MalformedDocument("{ f(a: \"\\u{110000}\") }", 1, 9, "invalid Unicode escape '\\u{110000}'; it is not a Unicode scalar value"),
        MalformedDocument("{ f(a: \"\\u{D800}\") }", 1, 9, "invalid Unicode escape '\\u{D800}'; it is not a Unicode scalar value"),
        MalformedDocument("{ f(a: \"\\uD83D x\") }", 1, 9,
                  "invalid Unicode escape '\\uD83D'; a surrogate must be followed by its pair, or write the character as \\u{…}"),
        MalformedDocument("{ f(a: 'x') }", 1, 8, "unexpected character '''; GraphQL strings use double quotes"),
        // Numbers.
        MalformedDocument("{ f(a: 1.) }", 1, 10, "invalid number '1.'; expected a digit after '.'"),
        MalformedDocument("{ f(a: 01) }", 1, 9, "invalid number '01'; a number cannot start with 0 followed by a digit"),
        MalformedDocument("{ f(a: -x) }", 1, 9, "invalid number '-'; expected a digit after '-'"),
        MalformedDocument("{ f(a: 1e) }", 1, 10, "invalid number '1e'; expected a digit in the exponent"),
        MalformedDocument("{ f(a: 12abc) }", 1, 10, "invalid number '12a'; a number cannot be followed by 'a'"),
        MalformedDocument("{ f(a: 1.5.2) }", 1, 11, "invalid number '1.5.'; a number cannot be followed by '.'"),
        // Characters.
        MalformedDocument("{ hero % }", 1, 8, "unexpected character '%'"),
        MalformedDocument("{ a\u{7} }", 1, 4, "unexpected character U+0007"),
        MalformedDocument("{ a\u{A0}b }", 1, 4, "unexpected character U+00A0"),
        MalformedDocument("{ héro }", 1, 4, "unexpected character 'é' (U+00E9)"),
        MalformedDocument("{ ..F }", 1, 3, "unexpected character '.'; did you mean '...'?"),
        // Brackets.
        MalformedDocument("{ hero { name }", 1, 16, "unexpected end of file; expected '}' to match the '{' at 1:1"),
        MalformedDocument("query Q {\n  hero {\n    name\n", 4, 1, "unexpected end of file; expected '}' to match the '{' at 2:8"),
        MalformedDocument("{ f(a: 1 }", 1, 10, "unexpected '}'; expected an argument name or ')'"),
        MalformedDocument("{ f(a: [1, 2) }", 1, 13, "unexpected ')'; expected a value or ']'"),
        MalformedDocument("{ f(a: {b: 1) }", 1, 13, "unexpected ')'; expected an input field name or '}'"),
        MalformedDocument("{ f(a: [1", 1, 10, "unexpected end of file; expected ']' to match the '[' at 1:8"),
        MalformedDocument("{ a } }", 1, 7, "unexpected '}'; expected query, mutation, subscription, fragment or '{'"),
        MalformedDocument("{}", 1, 2, "empty selection set; select at least one field"),
        MalformedDocument("{ f() }", 1, 5, "unexpected ')'; expected an argument name"),
        // Variables.
        MalformedDocument("query Q($ : Int) { f }", 1, 11, "unexpected ':'; expected a variable name after '$'"),
        MalformedDocument("{ f(a: $) }", 1, 9, "unexpected ')'; expected a variable name after '$'"),
        MalformedDocument("query Q($a Int) { f }", 1, 12, "unexpected name 'Int'; expected ':' and a type after '$a'"),
        MalformedDocument("query Q() { f }", 1, 9, "unexpected ')'; expected a variable definition such as '$id: ID!'"),
        MalformedDocument("query Q($a: [Int) { f }", 1, 17, "unexpected ')'; expected ']' to close the list type"),
        MalformedDocument("query Q($a: Int = $b) { f(a: $a) }", 1, 19,
                  "unexpected variable '$b'; default values and directives on variable definitions must be constants"),
        // Definitions and selections.
        MalformedDocument("qeury Q { f }", 1, 1,
                  "unexpected name 'qeury'; expected query, mutation, subscription, fragment or '{'; did you mean 'query'?"),
        MalformedDocument("type Query { hero: Character }", 1, 1,
                  "unexpected name 'type'; a document holds operations and fragments, not type system definitions"),
        MalformedDocument("\"description\" query Q { f }", 1, 1,
                  "unexpected string \"description\"; expected query, mutation, subscription, fragment or '{'"),
        MalformedDocument("query Q", 1, 8, "unexpected end of file; expected '{' to start the selection set"),
        MalformedDocument("fragment on on T { f }", 1, 10, "a fragment cannot be named 'on'; write 'fragment Name on Type { … }'"),
        MalformedDocument("fragment F { f }", 1, 12, "unexpected '{'; expected 'on' and a type name after fragment 'F'"),
        MalformedDocument("{ ... }", 1, 7, "unexpected '}'; expected a fragment name, 'on', '@' or '{' after '...'"),
        MalformedDocument("{ ... on { f } }", 1, 10, "unexpected '{'; expected a type name after 'on'"),
        MalformedDocument("{ a: b: c }", 1, 7, "unexpected ':'; expected a field name, '...' or '}'"),
        MalformedDocument("{ a: 1 }", 1, 6, "unexpected number 1; expected a field name after 'a:'"),
        MalformedDocument("{ f @ }", 1, 7, "unexpected '}'; expected a directive name after '@'"),
        MalformedDocument("{ f(a: ) }", 1, 8, "unexpected ')'; expected a value"),
        // Positions count lines (LF, CRLF, CR) and Unicode scalars, not bytes.
        MalformedDocument("{\r\n  f\r\n  😀\r\n}", 3, 3, "unexpected character '😀' (U+1F600)"),
        MalformedDocument("{\r  f\r  %\r}", 3, 3, "unexpected character '%'"),
        MalformedDocument("{ f(a: \"héllo\", b: %) }", 1, 20, "unexpected character '%'"),
        MalformedDocument("\u{FEFF}{ % }", 1, 4, "unexpected character '%'"),
    ]

    @Test(arguments: malformed)
    func reportsLineColumnAndMessage(_ bad: MalformedDocument) throws {
        let error = try #require(syntaxError(bad.source))
        #expect(error.message == bad.message)
        #expect(error.line == bad.line)
        #expect(error.column == bad.column)
    }

    @Test func reportShowsTheLineAndACaretUnderTheColumn() throws {
        let error = try #require(syntaxError("query Hero {\n  hero(id: \"1000) {\n    name\n  }\n}", fileName: "hero.graphql"))
        #expect(error.description
            == "hero.graphql:2:12: unterminated string; close it with '\"' before the end of the line")
        #expect(error.report == """
            hero.graphql:2:12: unterminated string; close it with '"' before the end of the line
              hero(id: "1000) {
                       ^
            """)
    }

    @Test func summaryWithoutFileNameStartsWithTheLine() throws {
        let error = try #require(syntaxError("{ f(a: 1.) }"))
        #expect(error.description == "1:10: invalid number '1.'; expected a digit after '.'")
        #expect(error.report == "1:10: invalid number '1.'; expected a digit after '.'\n{ f(a: 1.) }\n         ^")
    }

    @Test func caretKeepsTabsAndHidesControlCharacters() throws {
        let error = try #require(syntaxError("{\n\t\tf(a: \"\u{1}\", b: %)\n}", fileName: "t.graphql"))
        #expect(error.report == "t.graphql:2:16: unexpected character '%'\n\t\tf(a: \"\u{FFFD}\", b: %)\n\t\t"
            + String(repeating: " ", count: 13) + "^")
    }

    @Test func sourceLineHidesC1ControlsAndDelete() throws {
        // U+009B is a terminal's CSI and U+0085 a line break to some; both may stand in a GraphQL string.
        let error = try #require(syntaxError("{ f(a: \"\u{9B}31m\u{85}\u{7F}\") ) }"))
        #expect(error.report == "1:18: unexpected ')'; expected a field name, '...' or '}'\n"
            + "{ f(a: \"\u{FFFD}31m\u{FFFD}\u{FFFD}\") ) }\n" + String(repeating: " ", count: 17) + "^")
    }

    @Test func longLinesAreShownAsAWindowAroundTheColumn() throws {
        let source = "{ " + String(repeating: "a ", count: 200) + "% " + String(repeating: "b ", count: 200) + "}"
        let error = try #require(syntaxError(source))
        let lines = error.report.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[0] == "1:403: unexpected character '%'")
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"))
        #expect(lines[1].unicodeScalars.count == SourceSnippet.maximumWidth + 2)
        // The caret sits under the '%' in the shown window.
        let caretColumn = lines[2].unicodeScalars.count - 1
        let shown = Array(lines[1].unicodeScalars)
        try #require(caretColumn < shown.count)
        #expect(shown[caretColumn] == "%")
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 100_000
        let selections = String(repeating: "{ f ", count: depth) + String(repeating: "}", count: depth)
        let lists = "{ f(a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ") }"
        let objects = "{ f(a: " + String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth) + ") }"
        let types = "query ($a: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth) + ") { f }"
        for source in [selections, lists, objects, types] {
            #expect(syntaxError(source)?.message == "the document is nested more than 256 levels deep")
        }
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let limit = ParsedDocument.maximumDepth
        let source = String(repeating: "{ f ", count: limit) + String(repeating: "}", count: limit)
        let document = try Document(parsing: source)
        #expect(try Document(parsing: document.printed()) == document)
        let tooDeep = String(repeating: "{ f ", count: limit + 1) + String(repeating: "}", count: limit + 1)
        #expect(throws: GraphQLSyntaxError.self) { try Document(parsing: tooDeep) }
    }

    @Test func hugeDocumentsParse() throws {
        // 200,000 aliased fields with arguments on one line, and a 1 MB string.
        var source = "{ "
        for index in 0..<200_000 { source += "f\(index): f(a: \(index), b: \"x\") " }
        source += "big(s: \"" + String(repeating: "y", count: 1_000_000) + "\") }"
        let document = try Document(parsing: source)
        #expect(document.operations.first?.selectionSet.count == 200_001)
    }

    @Test func typeReferenceParsingRejectsTrailingText() throws {
        #expect(try TypeReference(parsing: "[Int!]!") == .nonNull(.list(.nonNull(.named("Int")))))
        #expect(throws: GraphQLSyntaxError.self) { try TypeReference(parsing: "Int) { evil }") }
        #expect(throws: GraphQLSyntaxError.self) { try TypeReference(parsing: "") }
    }
}
