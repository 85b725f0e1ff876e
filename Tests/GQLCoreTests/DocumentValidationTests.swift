import Testing
@testable import GQLCore

@Suite struct DocumentValidationTests {
    func problems(_ text: String) throws -> [String] {
        try ParsedDocument(parsing: text, fileName: "q.graphql").validate().map(\.description)
    }

    @Test func validDocumentsHaveNoProblems() throws {
        #expect(try problems("""
            query A($id: ID!, $n: Int = 3) { a(id: $id) { ...F } }
            query B($x: Boolean!) { b @include(if: $x) { ...G } }
            fragment F on T { f(n: $n) { ...G } }
            fragment G on T { g }
            """) == [])
    }

    @Test func unknownFragmentSuggestsTheClosestName() throws {
        #expect(try problems("{ hero { ...heroFeilds } }\nfragment heroFields on Character { name }") == [
            "q.graphql:1:13: unknown fragment 'heroFeilds'; did you mean 'heroFields'?",
            "q.graphql:2:10: fragment 'heroFields' is never used; spread it with '...heroFields' or remove it",
        ])
        #expect(try problems("{ hero { ...Missing } }") == [
            "q.graphql:1:13: unknown fragment 'Missing'; define it with 'fragment Missing on Type { … }'",
        ])
    }

    @Test func fragmentCyclesAreReportedOnceAtTheClosingSpread() throws {
        let text = """
            { hero { ...A } }
            fragment A on T { a { ...B } }
            fragment B on T { b { ...C } }
            fragment C on T { c { ...A } }
            fragment D on T { ...D }
            """
        #expect(try problems(text) == [
            "q.graphql:4:26: fragment cycle A -> B -> C -> A; a fragment cannot spread itself, directly or through "
                + "other fragments",
            "q.graphql:5:10: fragment 'D' is never used; spread it with '...D' or remove it",
            "q.graphql:5:22: fragment cycle D -> D; a fragment cannot spread itself, directly or through other fragments",
        ])
        let found = try ParsedDocument(parsing: text).validate()
        #expect(found.map(\.kind) == [.fragmentCycle(["A", "B", "C", "A"]), .unusedFragment("D"), .fragmentCycle(["D", "D"])])
        #expect(found.map { $0.position?.description } == ["4:26", "5:10", "5:22"])
    }

    @Test func variablesMustBeDeclaredByTheOperationThroughFragments() throws {
        let text = """
            query Hero($episode: Episode) {
              hero(episode: $episod) { ...Friends }
            }
            fragment Friends on Character { friendsConnection(first: $first) { totalCount } }
            """
        #expect(try problems(text) == [
            "q.graphql:1:12: variable '$episode' is declared by operation 'Hero' but never used; remove it",
            "q.graphql:2:17: variable '$episod' is not declared by operation 'Hero'; did you mean '$episode'?",
            "q.graphql:4:58: variable '$first' is not declared by operation 'Hero' (used in fragment 'Friends'); "
                + "add '$first: Type' to its variable definitions",
        ])
    }

    @Test func aFragmentSharedByTwoOperationsIsCheckedForEach() throws {
        let text = """
            query A($n: Int) { a { ...F } }
            query B { b { ...F } }
            fragment F on T { f(n: $n) }
            """
        let found = try ParsedDocument(parsing: text).validate()
        #expect(found.map(\.kind) == [.undeclaredVariable("n", operation: "B")])
        #expect(found.first?.position == SourcePosition(line: 3, column: 24))
    }

    @Test func duplicateVariablesAreReported() throws {
        #expect(try problems("query Q($a: Int, $a: Int) { f(a: $a) }") == [
            "q.graphql:1:18: variable '$a' is declared twice by operation 'Q'; remove one",
        ])
    }

    @Test func duplicateOperationAndFragmentNamesPointAtTheSecond() throws {
        let text = """
            query Hero { a { ...F } }
            query Hero { b { ...F } }
            fragment F on T { f }
            fragment F on T { g }
            """
        #expect(try problems(text) == [
            "q.graphql:2:7: duplicate operation name 'Hero' (first defined at 1:7); give each operation its own name",
            "q.graphql:4:10: duplicate fragment name 'F' (first defined at 3:10); give each fragment its own name",
        ])
    }

    @Test func anAnonymousOperationMustBeAlone() throws {
        #expect(try problems("{ a }\nquery Named { b }") == [
            "q.graphql:1:1: an anonymous operation must be the only operation in the document; give it a name, "
                + "as in 'query MyOperation { … }'",
        ])
        #expect(try problems("mutation { a }\n{ b }").count == 2)
        #expect(try problems("{ a }") == [])
    }

    @Test func reportShowsTheOffendingLine() throws {
        let found = try ParsedDocument(parsing: "query Q {\n  hero { ...Nope }\n}", fileName: "q.graphql").validate()
        #expect(found.map(\.report) == [
            "q.graphql:2:13: unknown fragment 'Nope'; define it with 'fragment Nope on Type { … }'\n  hero { ...Nope }\n            ^",
        ])
    }

    @Test func builtDocumentsAreCheckedWithoutPositions() {
        let document = Document {
            OperationDefinition.query("Q") {
                Field("hero", arguments: ["id": .variable("id")]) { FragmentSpread("Missing") }
            }
        }
        let found = document.validate()
        #expect(found.map(\.kind) == [.undefinedFragment("Missing"), .undeclaredVariable("id", operation: "Q")])
        #expect(found.allSatisfy { $0.position == nil && $0.lineText == nil })
        #expect(found.first?.report == "unknown fragment 'Missing'; define it with 'fragment Missing on Type { … }'")
    }

    @Test func builtDocumentsWithUnprintableNamesOrNumbersAreRejected() {
        let document = Document {
            OperationDefinition.query("Bad Name", variables: [VariableDefinition("v", type: "Int", defaultValue: .variable("w"))]) {
                Field("f } evil {", alias: "2x", arguments: [
                    Argument("a", .int("1.5")), Argument("b", .float("1e")), Argument("c", .enumValue("true")),
                    Argument("d", ["bad key": 1]), Argument("e", .variable("v")),
                ])
                InlineFragment(on: "T", selections: [])
                FragmentSpread("on")
            }
        }
        #expect(document.validate().map(\.kind) == [
            .undefinedFragment("on"),
            .invalidName("Bad Name", role: "operation name"),
            .variableInConstant("w"),
            .invalidName("2x", role: "alias"),
            .invalidName("f } evil {", role: "field name"),
            .invalidNumber("1.5"),
            .invalidNumber("1e"),
            .invalidEnumValue("true"),
            .invalidName("bad key", role: "input field name"),
            .emptySelectionSet("an inline fragment"),
            .invalidName("on", role: "fragment name"),
        ])
    }

    @Test func emptyOperationsAndFragmentsAreRejected() {
        let document = Document(operations: [OperationDefinition(.query, name: "Q", selections: [])])
        #expect(document.validate().map(\.message) == ["operation 'Q' has an empty selection set; select at least one field"])
    }
}

@Suite struct OperationSelectionTests {
    let document: Document

    init() throws {
        document = try Document(parsing: "query HeroName { hero { name } }\nmutation AddReview { createReview { stars } }")
    }

    @Test func aNameChoosesTheOperation() throws {
        #expect(try document.operation(named: "AddReview").operationType == .mutation)
        #expect(try document.operation(named: "HeroName").name == "HeroName")
    }

    @Test func withoutANameSeveralOperationsAreAmbiguous() {
        #expect(throws: OperationSelectionError.ambiguous(names: ["HeroName", "AddReview"])) {
            try document.operation(named: nil)
        }
        #expect(OperationSelectionError.ambiguous(names: ["A", "B"]).description
            == "the document has 2 operations (A, B); choose one with operation name")
    }

    @Test func anUnknownNameSuggestsTheClosest() {
        #expect(throws: OperationSelectionError.unknownOperation("HeroNme", available: ["HeroName", "AddReview"])) {
            try document.operation(named: "HeroNme")
        }
        #expect(OperationSelectionError.unknownOperation("Xy", available: ["X"]).description
            == "unknown operation 'Xy'; did you mean 'X'?")
        #expect(OperationSelectionError.unknownOperation("Zzz", available: ["HeroName", "AddReview"]).description
            == "unknown operation 'Zzz'; the document has HeroName, AddReview")
    }

    @Test func theOnlyOperationIsChosenWithoutAName() throws {
        let single = try Document(parsing: "{ hero { name } }")
        #expect(try single.operation(named: nil).name == nil)
        #expect(throws: OperationSelectionError.unknownOperation("Hero", available: [nil])) {
            try single.operation(named: "Hero")
        }
        #expect(OperationSelectionError.unknownOperation("Hero", available: [nil]).description
            == "unknown operation 'Hero'; the document's only operation has no name, so leave out operation name")
    }

    @Test func fragmentsAloneHaveNoOperation() throws {
        let fragments = try Document(parsing: "fragment F on T { f }")
        #expect(throws: OperationSelectionError.noOperations) { try fragments.operation(named: nil) }
        #expect(throws: OperationSelectionError.noOperations) { try fragments.operation(named: "F") }
        #expect(OperationSelectionError.noOperations.description
            == "the document has no operations, only fragments; add a query, mutation or subscription")
    }

    @Test func subsetKeepsTheOperationAndTheFragmentsItReaches() throws {
        let text = """
            fragment Unrelated on T { u }
            query A { a { ...F } }
            fragment G on T { g }
            query B { b { ...Unrelated } }
            fragment F on T { f { ...G ...F2 } }
            fragment F2 on T { f2 }
            """
        let document = try Document(parsing: text)
        let subset = document.subset(for: try document.operation(named: "A"))
        #expect(subset.printed() == """
            query A {
              a {
                ...F
              }
            }

            fragment G on T {
              g
            }

            fragment F on T {
              f {
                ...G
                ...F2
              }
            }

            fragment F2 on T {
              f2
            }
            """)
        #expect(subset.validate().isEmpty)
    }
}

@Suite struct DocumentValidationScaleTests {
    @Test func longFragmentChainsAndCyclesDoNotExhaustTheStack() throws {
        let count = 50_000
        var text = "{ f { ...F0 } }\n"
        for index in 0..<count { text += "fragment F\(index) on T { g ...F\((index + 1) % count) }\n" }
        let found = try ParsedDocument(parsing: text).validate()
        #expect(found.map(\.kind) == [.fragmentCycle((0..<count).map { "F\($0)" } + ["F0"])])
        #expect(found.first?.position == SourcePosition(line: count + 1, column: 29))
    }
}

@Suite struct VariableCheckTests {
    let operation: OperationDefinition

    init() throws {
        operation = try Document(parsing: """
            query Hero($episode: Episode!, $first: Int! = 3, $withFriends: Boolean, $id: ID!) {
              luke: human(id: $id) { name }
              hero(episode: $episode) { friendsConnection(first: $first) { totalCount } friends @include(if: $withFriends) { name } }
              ... on Query { __typename }
            }
            """).operation(named: nil)
    }

    @Test func requiredVariablesWithoutDefaultsMustBeGiven() {
        #expect(operation.variableProblems(in: ["episode": "JEDI", "id": "1000"]) == [])
        #expect(operation.variableProblems(in: ["episode": nil]) == [
            .missing(name: "episode", type: "Episode!", operation: "Hero"),
            .missing(name: "id", type: "ID!", operation: "Hero"),
        ])
        #expect(VariableProblem.missing(name: "id", type: "ID!", operation: "Hero").description
            == "variable '$id' of type ID! is required by operation 'Hero' but has no value")
    }

    @Test func undeclaredVariablesAreReportedWithASuggestion() {
        let problems = operation.variableProblems(in: ["episode": "JEDI", "id": "1", "epsiode": "JEDI", "zzz": 1])
        #expect(problems == [
            .undeclared(name: "epsiode", suggestion: "episode", operation: "Hero"),
            .undeclared(name: "zzz", suggestion: nil, operation: "Hero"),
        ])
        #expect(problems.map(\.description) == [
            "variable 'epsiode' is not declared by operation 'Hero'; did you mean 'episode'?",
            "variable 'zzz' is not declared by operation 'Hero'",
        ])
    }

    @Test func rootResponseKeysUseAliases() {
        #expect(operation.rootResponseKeys == ["luke", "hero"])
    }
}

extension DocumentValidationScaleTests {
    @Test func manyProblemsOnOneLongLineAmongManyFragmentsStayCheap() throws {
        // 20,000 unknown spreads on one line beside 20,000 chained fragments: positions share one copy
        // of the line, and suggestions stop once their comparison budget (100,000 names) is spent.
        let count = 20_000
        var text = "{ f { " + (0..<count).map { "...G\($0)x " }.joined() + "...G0 } }\n"
        for index in 0..<count { text += "fragment G\(index) on T { g " + (index + 1 < count ? "...G\(index + 1) }\n" : "}\n") }
        let found = try ParsedDocument(parsing: text).validate()
        #expect(found.count == count)
        #expect(found.first?.message == "unknown fragment 'G0x'; did you mean 'G0'?")
        #expect(found.first?.position == SourcePosition(line: 1, column: 10))
        #expect(found[4].message == "unknown fragment 'G4x'; did you mean 'G4'?")
        #expect(found[5].message == "unknown fragment 'G5x'; define it with 'fragment G5x on Type { … }'")
        let lastSpread = try #require(text.range(of: "...G19999x"))
        let lastColumn = text.utf8.distance(from: text.startIndex, to: lastSpread.lowerBound) + 4
        #expect(found.last?.position == SourcePosition(line: 1, column: lastColumn))
    }
}
