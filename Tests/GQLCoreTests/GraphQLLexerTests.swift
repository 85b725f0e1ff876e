import Testing
@testable import GQLCore

/// Values and ignored tokens, checked through the parser: the value of `f(a: …)`.
@Suite struct GraphQLLexerTests {
    func argument(_ valueText: String) throws -> InputValue {
        let document = try Document(parsing: "{ f(a: \(valueText)) }")
        guard case .field(let field)? = document.operations.first?.selectionSet.first, let argument = field.arguments.first
        else {
            Issue.record("no argument parsed from \(valueText)")
            return .null
        }
        return argument.value
    }

    @Test func escapesDecode() throws {
        #expect(try argument(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{8} \u{C} \n \r \t"))
        #expect(try argument(#""\u00e9\u00C9""#) == .string("éÉ"))
        #expect(try argument(#""\u{1F600}\u{41}\u{0000041}""#) == .string("😀AA"))
        #expect(try argument(#""\uD83D\uDE00""#) == .string("😀"), "a surrogate pair makes one scalar")
        #expect(try argument("\"raw é 😀 \u{7}\"") == .string("raw é 😀 \u{7}"), "any scalar but a line end may appear raw")
    }

    @Test func blockStringsStripCommonIndentationAndBlankEdgeLines() throws {
        #expect(try argument("\"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\"")
            == .string("Hello,\n  World!\n\nYours,\n  GraphQL."))
        // The first line keeps its indentation; it does not count towards the common indent.
        #expect(try argument("\"\"\"  first\n    second\n      third\"\"\"") == .string("  first\nsecond\n  third"))
        // Whitespace-only lines do not count towards the common indent either.
        #expect(try argument("\"\"\"\n        \n    a\n  \n\"\"\"") == .string("a"))
        // Tabs are whitespace; CR and CRLF end lines.
        #expect(try argument("\"\"\"\r\n\t\ta\r\t\t\tb\r\n\"\"\"") == .string("a\n\tb"))
        // Only \""" is an escape; other backslashes are kept.
        #expect(try argument(#""""a \""" b \n \u0041""""#) == .string(#"a """ b \n \u0041"#))
        #expect(try argument("\"\"\"\"\"\"") == .string(""))
        #expect(try argument("\"\"\"   \n   \n\"\"\"") == .string(""))
    }

    @Test func numbersKeepTheirText() throws {
        #expect(try argument("-0") == .int("-0"))
        #expect(try argument("12345678901234567890123") == .int("12345678901234567890123"))
        #expect(try argument("1.50") == .float("1.50"))
        #expect(try argument("6.02E+23") == .float("6.02E+23"))
        #expect(try argument("1e-3") == .float("1e-3"))
        #expect(try argument("0.0") == .float("0.0"))
    }

    @Test func namesBecomeEnumsBooleansOrNull() throws {
        #expect(try argument("true") == .boolean(true))
        #expect(try argument("false") == .boolean(false))
        #expect(try argument("null") == .null)
        #expect(try argument("TRUE") == .enumValue("TRUE"))
        #expect(try argument("on") == .enumValue("on"))
        #expect(try argument("$ on") == .variable("on"), "'$' and the name are separate tokens")
    }

    @Test func listsAndObjectsKeepOrder() throws {
        #expect(try argument("[1, [], {}, [null]]") == .list([.int("1"), .list([]), .object([]), .list([.null])]))
        #expect(try argument("{z: 1 a: $v, m: {x: X}}") == .object([
            .init("z", .int("1")), .init("a", .variable("v")), .init("m", .object([.init("x", .enumValue("X"))])),
        ]))
    }

    @Test func commasCommentsAndByteOrderMarksAreIgnored() throws {
        let plain = try Document(parsing: "{ a b(x: 1 y: 2) }")
        #expect(try Document(parsing: "\u{FEFF}{,a,,b(x: 1,, y: 2,),}") == plain)
        #expect(try Document(parsing: "# header\n{ a # one\n b(x: 1 # two\n y: 2) } # end") == plain)
        #expect(try Document(parsing: "{ a \u{FEFF} b(x:\u{FEFF}1 y: 2) }") == plain)
        #expect(try Document(parsing: "{\ta\r\nb(x: 1\ry: 2)\n}") == plain)
    }

    @Test func aCommentRunsToTheEndOfTheLineOnly() throws {
        #expect(try Document(parsing: "{ a # } broken {\n}") == Document(parsing: "{ a }"))
        #expect(try Document(parsing: "{ a # comment\r}") == Document(parsing: "{ a }"))
    }
}
