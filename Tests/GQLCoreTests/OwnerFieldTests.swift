import Testing
@testable import GQLCore

/// Owner fields an auth rule names but the schema leaves to the transformer: model fields, server-set, selected.
@Suite struct OwnerFieldTests {
    static let sdl = """
        type Memo @model @auth(rules: [{allow: owner}, {allow: groups, groupsField: "editors"}]) {
          id: ID!
          content: String
        }
        type Note @model @auth(rules: [{allow: owner, ownerField: "author"}]) {
          id: ID!
          author: String!
        }
        """

    @Test func undeclaredOwnerFieldsAreAddedServerSet() throws {
        let schema = try TransformerSchemaReader.read(text: Self.sdl, path: "schema.graphql")
        let memo = try #require(schema.models["Memo"])
        #expect(memo.ownerFieldNames == ["owner", "editors"])
        #expect(memo.field(named: "owner") == ModelField(name: "owner", type: .scalar("String"), isReadOnly: true))
        #expect(memo.field(named: "editors") == ModelField(name: "editors", type: .scalar("String"), isArray: true, isReadOnly: true))
        // A declared owner field stays as declared.
        #expect(schema.models["Note"]?.field(named: "author") == ModelField(name: "author", type: .scalar("String"), isRequired: true))
    }

    @Test func everyDocumentSelectsThem() throws {
        let builder = TestSchemas.builder(try TransformerSchemaReader.read(text: Self.sdl, path: "schema.graphql"))
        let documents = [
            try builder.create("Memo", values: RecordValues(assignments: ["content=x"])).query,
            try builder.get("Memo", key: .id("m1")).query,
            try builder.subscription("Memo", event: .onUpdate).query,
        ]
        for document in documents {
            #expect(document.contains("\n    editors\n") && document.contains("\n    owner\n"), "\(document)")
        }
        // The server sets them: a create cannot.
        #expect(errorMessage { try builder.create("Memo", values: RecordValues(assignments: ["owner=x"])) }
            == "'owner=x': 'owner' on Memo is read-only (set by the server)")
    }
}
