import Testing
@testable import GQLCore

@Suite struct DecodePathCheckTests {
    func check(_ path: String, in text: String, operation name: String? = nil) throws -> String? {
        let document = try Document(parsing: text)
        do {
            try document.checkDecodePath(path.split(separator: ".").map(String.init), for: document.operation(named: name))
            return nil
        } catch let mismatch as DecodePathMismatch {
            return mismatch.description
        }
    }

    @Test func everyStepMustBeSelected() throws {
        let text = "{ luke: human(id: 1) { name friends { name } } }"
        #expect(try check("luke.friends.name", in: text) == nil)
        #expect(try check("human", in: text) == "the operation has no root field 'human'")
        #expect(try check("luk", in: text) == "the operation has no root field 'luk'; did you mean 'luke'?")
        #expect(try check("luke.frends", in: text) == "the document selects no field 'frends' in 'luke'; did you mean 'friends'?")
        #expect(try check("luke.friends.nam", in: text)
            == "the document selects no field 'nam' in 'luke.friends'; did you mean 'name'?")
    }

    @Test func fragmentsAreLookedThroughAtEveryLevel() throws {
        let text = """
            query { ...Root }
            fragment Root on Query { hero { ...Details ... on Droid { primaryFunction } } }
            fragment Details on Character { name ...Details }
            """
        #expect(try check("hero.name", in: text) == nil)
        #expect(try check("hero.primaryFunction", in: text) == nil)
        #expect(try check("hero.id", in: text) == "the document selects no field 'id' in 'hero'")
    }

    @Test func aFieldSelectedTwiceMergesItsSelections() throws {
        let text = "{ hero { name } hero { friends { name } } }"
        #expect(try check("hero.friends.name", in: text) == nil)
        #expect(try check("hero.name", in: text) == nil)
    }

    @Test func stepsBelowALeafAreNotChecked() throws {
        // A custom JSON scalar may hold an object; only the response can tell.
        #expect(try check("getPost.metadata.wordCount", in: "{ getPost(id: 1) { metadata } }") == nil)
    }

    @Test func theChosenOperationIsTheOneChecked() throws {
        let text = "query A { a { x } } query B { b { y } }"
        #expect(try check("b.y", in: text, operation: "B") == nil)
        #expect(try check("a.x", in: text, operation: "B") == "the operation has no root field 'a'; did you mean 'b'?")
    }

    @Test func aLongChainOfFragmentsDoesNotExhaustTheStack() throws {
        let count = 20_000
        var text = "{ f { ...G0 } }\n"
        for index in 0..<count { text += "fragment G\(index) on T { g\(index) " + (index + 1 < count ? "...G\(index + 1) }\n" : "}\n") }
        #expect(try check("f.g\(count - 1)", in: text) == nil)
        #expect(try check("f.missing", in: text)?.hasPrefix("the document selects no field 'missing' in 'f'") == true)
    }
}
