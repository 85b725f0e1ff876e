import Testing
@testable import GQLCore

@Suite struct DocumentBuilderTests {
    @Test func variablesDefaultsDirectivesAndNestedArguments() {
        let document = Document {
            OperationDefinition.query(
                "HeroNameAndFriends",
                variables: [
                    VariableDefinition("episode", type: "Episode", defaultValue: .enumValue("JEDI")),
                    VariableDefinition("withFriends", type: "Boolean!"),
                    VariableDefinition("first", type: "Int", defaultValue: 3),
                ]
            ) {
                Field("hero", arguments: ["episode": .variable("episode")]) {
                    "name"
                    Field("height", arguments: ["unit": .enumValue("FOOT")])
                    Field("friends", directives: [.include(if: .variable("withFriends"))]) { "name" }
                    Field("friendsConnection", arguments: ["first": .variable("first")], directives: [.skip(if: false)]) {
                        "totalCount"
                    }
                    InlineFragment(on: "Droid") { "primaryFunction" }
                }
            }
        }
        #expect(document.printed() == """
            query HeroNameAndFriends($episode: Episode = JEDI, $withFriends: Boolean!, $first: Int = 3) {
              hero(episode: $episode) {
                name
                height(unit: FOOT)
                friends @include(if: $withFriends) {
                  name
                }
                friendsConnection(first: $first) @skip(if: false) {
                  totalCount
                }
                ... on Droid {
                  primaryFunction
                }
              }
            }
            """)
        #expect(document.validate().isEmpty)
    }

    @Test func aliasesFragmentsAndSeveralDefinitions() {
        let document = Document {
            OperationDefinition.query {
                Field("hero", alias: "empireHero", arguments: ["episode": .enumValue("EMPIRE")]) {
                    FragmentSpread("comparisonFields")
                }
            }
            FragmentDefinition("comparisonFields", on: "Character") {
                "name"
                "appearsIn"
            }
        }
        #expect(document.printed() == """
            {
              empireHero: hero(episode: EMPIRE) {
                ...comparisonFields
              }
            }

            fragment comparisonFields on Character {
              name
              appearsIn
            }
            """)
    }

    @Test func mutationWithInputObjectVariablesAndOperationDirectives() throws {
        let document = Document {
            OperationDefinition.mutation(
                "CreateReviewForEpisode",
                variables: [VariableDefinition("ep", type: "Episode!"), VariableDefinition("review", type: "ReviewInput!")],
                directives: [Directive("audit", arguments: ["tags": ["a", "b"], "level": 2.5])]
            ) {
                Field("createReview", arguments: ["episode": .variable("ep"), "review": .variable("review")]) {
                    "stars"
                    "commentary"
                }
            }
        }
        #expect(document.printed() == """
            mutation CreateReviewForEpisode($ep: Episode!, $review: ReviewInput!) @audit(tags: ["a", "b"], level: 2.5) {
              createReview(episode: $ep, review: $review) {
                stars
                commentary
              }
            }
            """)
        #expect(try Document(parsing: document.printed()) == document)
    }

    @Test func builderControlFlow() {
        for withTypename in [false, true] {
            let names = ["a", "b"]
            let field = Field("root") {
                for name in names { name }
                if withTypename { "__typename" } else { Field("id") }
                if let first = names.first { Field(first, alias: "firstAgain") }
            }
            let expected: [Selection] = [.field(Field("a")), .field(Field("b"))]
                + [withTypename ? .field(Field("__typename")) : .field(Field("id"))]
                + [.field(Field("a", alias: "firstAgain"))]
            #expect(field.selectionSet == expected)
        }
    }

    @Test func literalsMakeTheExpectedValues() {
        let values: [InputValue] = ["s", 42, 1.5, true, nil, [1, "x"], ["k": 1, "j": [false]]]
        #expect(values.map(DocumentPrinter.print) == ["\"s\"", "42", "1.5", "true", "null", "[1, \"x\"]", "{k: 1, j: [false]}"])
        #expect(InputValue.int(-7) == .int("-7"))
        #expect(InputValue.float(0.00001) == .float("1e-05"))
        #expect(InputValue.float(.infinity) == .null)
        #expect(InputValue.float(.nan) == .null)
    }

    @Test func typeReferenceLiterals() {
        let list: TypeReference = "[Episode!]!"
        #expect(list == .nonNull(.list(.nonNull(.named("Episode")))))
        let invalid: TypeReference = "Int) { evil }"
        #expect(invalid == .named("Int) { evil }"))
        let document = Document(operations: [
            OperationDefinition(.query, variables: [VariableDefinition("v", type: invalid)], selections: [.field(Field("f"))]),
        ])
        #expect(document.validate().map(\.kind).contains(.invalidName("Int) { evil }", role: "type name")))
    }
}

@Suite struct HostileStringTests {
    static let hostile: [String] = [
        "\"", "\\", "\\\"", "\"}) { evil }", "\") { __schema { types { name } } } #", "line\nbreak", "cr\rlf\r\n",
        "tab\there", "\u{0}\u{1}\u{8}\u{C}\u{1B}\u{7F}", "\"\"\"block\"\"\"", "# not a comment", "$variable", "...F",
        "é 😀 \u{200B} \u{FEFF} \u{2028}", "\\u0022", "\\\\\"", String(repeating: "\"\\", count: 1000),
    ]

    @Test(arguments: hostile)
    func anyStringSurvivesPrintingAndParsingUnchanged(_ hostile: String) throws {
        let document = Document {
            OperationDefinition.query("Q") {
                Field("f", arguments: ["s": .string(hostile), "o": ["k": .string(hostile)], "l": [.string(hostile)]]) {
                    "id"
                }
            }
        }
        let text = document.printed()
        let reparsed = try Document(parsing: text)
        #expect(reparsed == document)
        #expect(reparsed.printed() == text)
        // The value stays on one line: printed strings never contain a raw line terminator.
        #expect(text.split(separator: "\n").count == 5)
    }

    @Test func quotedEscapesEveryCharacterThatMatters() {
        #expect(DocumentPrinter.quoted("\"}) { evil }") == #""\"}) { evil }""#)
        #expect(DocumentPrinter.quoted("a\\b\nc\rd\te\u{8}f\u{C}") == #""a\\b\nc\rd\te\bf\f""#)
        #expect(DocumentPrinter.quoted("\u{0}\u{1F}\u{7F}") == #""\u0000\u001F\u007F""#)
        #expect(DocumentPrinter.quoted("é😀") == "\"é😀\"")
    }

    @Test func jsonBecomesAnEscapedLiteral() throws {
        let json = try JSONValue.parse(#"""
            {"title": "Hi \"you\"\n}) { evil }", "stars": 5, "ratio": 0.5, "big": 12345678901234567890,
             "tags": ["a", null, true], "nested": {"x": -1e-3}}
            """#)
        let value = try InputValue(json: json)
        #expect(DocumentPrinter.print(value) == #"""
            {title: "Hi \"you\"\n}) { evil }", stars: 5, ratio: 0.5, big: 12345678901234567890, tags: ["a", null, true], nested: {x: -1e-3}}
            """#)
        let document = Document {
            OperationDefinition.mutation("M") { Field("create", arguments: [Argument("input", value)]) { "id" } }
        }
        #expect(try Document(parsing: document.printed()) == document)
    }

    @Test func jsonKeysThatAreNotNamesAreRefused() throws {
        let json = try JSONValue.parse(#"{"ok": {"list": [{"a: 1}) { evil } #": 1}]}}"#)
        #expect(throws: InputValueConversionError(key: "a: 1}) { evil } #", path: "$.ok.list[0]")) {
            try InputValue(json: json)
        }
        #expect(InputValueConversionError(key: "a b", path: "$").description.hasPrefix(
            "JSON key \"a b\" at $ is not a valid GraphQL input field name"))
    }

    @Test func jsonStringsNeverBecomeEnums() throws {
        #expect(try InputValue(json: .string("JEDI")) == .string("JEDI"))
        #expect(try InputValue(json: .number(JSONNumber(3))) == .int("3"))
    }
}
