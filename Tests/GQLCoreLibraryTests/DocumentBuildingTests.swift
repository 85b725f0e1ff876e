import GQLCore
import Testing

/// The document-builder API as a user of the library sees it: `import GQLCore`, no `@testable`.
/// The example is docs/documents.md's ("Building documents in Swift"); the expected text follows the GraphQL
/// specification's Star Wars examples of variables with defaults and inline fragments, in the printer's layout.
@Suite struct DocumentBuildingTests {
    @Test func theReadmeExamplePrintsTheSpecificationsDocument() throws {
        let withFriends = true
        let document = Document {
            OperationDefinition.query("HeroNameAndFriends", variables: [
                VariableDefinition("episode", type: "Episode", defaultValue: .enumValue("JEDI")),
            ]) {
                Field("hero", arguments: ["episode": .variable("episode")]) {
                    "name"
                    if withFriends {
                        Field("friends") { "name" }
                    }
                    InlineFragment(on: "Droid") { "primaryFunction" }
                }
            }
        }
        #expect(document.printed() == """
            query HeroNameAndFriends($episode: Episode = JEDI) {
              hero(episode: $episode) {
                name
                friends {
                  name
                }
                ... on Droid {
                  primaryFunction
                }
              }
            }
            """)
        #expect(document.validate().isEmpty)
        // What gqlc raw would send: the built text parses back into a request for its one operation.
        let request = try RequestBuilder.raw(document: document.printed(), variables: ["episode": "EMPIRE"], decodePath: ["hero"])
        #expect(request.operationType == .query && request.decodePath == ["hero"])
    }
}
