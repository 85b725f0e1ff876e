import Foundation
import Testing
@testable import GQLCore

/// The graphql.org "Queries" examples in DevServers/StarWars/queries, parsed, printed and parsed again.
@Suite struct GraphQLRoundTripTests {
    static let queriesDirectory = TestPaths.starWarsQueries

    static let exampleNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: queriesDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".graphql") }.sorted()
    }()

    static func example(_ name: String) throws -> String {
        try String(contentsOf: queriesDirectory.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func allTwelveExamplesArePresent() {
        #expect(Self.exampleNames.count == 12)
    }

    @Test(arguments: exampleNames)
    func parsePrintParseGivesTheSameDocument(_ name: String) throws {
        let parsed = try ParsedDocument(parsing: Self.example(name), fileName: name)
        let printed = parsed.document.printed()
        let reparsed = try Document(parsing: printed)
        #expect(reparsed == parsed.document)
        #expect(reparsed.printed() == printed, "printing is stable")
        #expect(parsed.validate().isEmpty, "\(parsed.validate().map(\.description))")
        #expect(!printed.hasSuffix("\n"))
    }

    @Test(arguments: exampleNames)
    func examplesAreAlreadyInPrinterLayout(_ name: String) throws {
        // The files are written in the printer's layout, except for comments and the final newline.
        let text = try Self.example(name)
        let withoutComments = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .joined(separator: "\n")
        let expected = withoutComments.hasSuffix("\n") ? String(withoutComments.dropLast()) : withoutComments
        #expect(try Document(parsing: text).printed() == expected)
    }

    @Test func parsedDocumentEqualsTheBuiltOne() throws {
        let parsed = try Document(parsing: Self.example("05-fragment-variables.graphql"))
        let built = Document {
            OperationDefinition.query(
                "HeroComparison", variables: [VariableDefinition("first", type: "Int", defaultValue: 3)]
            ) {
                Field("hero", alias: "leftComparison", arguments: ["episode": .enumValue("EMPIRE")]) {
                    FragmentSpread("comparisonFields")
                }
                Field("hero", alias: "rightComparison", arguments: ["episode": .enumValue("JEDI")]) {
                    FragmentSpread("comparisonFields")
                }
            }
            FragmentDefinition("comparisonFields", on: "Character") {
                "name"
                Field("friendsConnection", arguments: ["first": .variable("first")]) {
                    "totalCount"
                    Field("edges") { Field("node") { "name" } }
                }
            }
        }
        #expect(parsed == built)
    }

    @Test func positionsDoNotAffectEquality() throws {
        let compact = try Document(parsing: "query Q($a: Int) { f(a: $a) { ...F } } fragment F on T { g }")
        let spread = try Document(parsing: "\n\n  query   Q ( $a : Int , )\n{\n f ( a : $a ) { ... F }\n}\n# c\nfragment F on T { g }")
        #expect(compact == spread)
    }

    @Test func inlineFragmentWithoutTypeAndDirectivesEverywhereRoundTrip() throws {
        let text = """
            query Q($a: [Int!]! = [1, 2], $b: In = {x: 1.5e3, y: "s", z: [null, true, ENUM]} @d(k: 1)) @op {
              f(a: $a, b: $b) @skip(if: false) {
                ... @include(if: true) {
                  g
                }
                ...F @d
              }
            }

            fragment F on T @frag {
              h
            }
            """
        let document = try Document(parsing: text)
        #expect(document.printed() == text)
    }

    @Test func shorthandQueryPrintsAsShorthand() throws {
        #expect(try Document(parsing: "query { a }").printed() == "{\n  a\n}")
        #expect(try Document(parsing: "query { a }") == Document(parsing: "{ a }"))
    }

    @Test func blockStringsAndEscapesPrintAsEquivalentQuotedStrings() throws {
        let text = "{ f(a: \"\"\"\n    hello\n      \"world\"\n    \"\"\", b: \"\\u{1F600}\\t\\u00e9\") }"
        let document = try Document(parsing: text)
        #expect(document.printed() == "{\n  f(a: \"hello\\n  \\\"world\\\"\", b: \"😀\\té\")\n}")
        #expect(try Document(parsing: document.printed()) == document)
    }

    @Test func keywordsAreOrdinaryNames() throws {
        let text = "query query($query: query) {\n  query: query(query: $query, on: on, fragment: fragment) {\n    on\n  }\n}"
        let document = try Document(parsing: text)
        #expect(document.printed() == text)
    }
}
