import Testing
@testable import GQLCore

/// What a create or update takes as record values: nulls for required fields, belongsTo keys given as the related
/// record (Amplify JS and DataStore's record shape) or its key.
@Suite struct RecordInputTests {
    let blog: RequestBuilder
    let tags: RequestBuilder
    init() throws {
        blog = TestSchemas.builder(try TestSchemas.blog())
        tags = TestSchemas.builder(try TestSchemas.tags())
    }

    private func message(_ body: () throws -> GraphQLRequest) -> String? { errorMessage(body) }

    @Test func anUpdateCannotSetARequiredFieldToNull() throws {
        let refusal = "update Post: cannot set the required field 'title' (String!) to null (every read of the record "
            + "would then fail); give it a value or leave it out"
        #expect(message { try blog.update("Post", key: .id("p1"), values: RecordValues(assignments: ["title=null"])) } == refusal)
        #expect(message { try blog.update("Post", key: .id("p1"), values: RecordValues(assignments: ["title:=null"])) } == refusal)
        #expect(message { try blog.update("Post", key: nil, values: RecordValues(input: ["id": "p1", "title": nil])) } == refusal)
        // Optional fields may be cleared.
        let cleared = try blog.update("Post", key: .id("p1"), values: RecordValues(assignments: ["content=null", "blog=null"]))
        #expect(cleared.variables.serialized() == #"{"input":{"blogId":null,"content":null,"id":"p1"}}"#)
    }

    @Test func aRequiredBelongsToIsNamedForItsKey() throws {
        #expect(message { try tags.update("ArticleTags", key: .id("j1"), values: RecordValues(assignments: ["articleId=null", "tag=null"])) }
            == "update ArticleTags: cannot set the required fields 'article' (Article!: its key articleId), "
            + "'tag' (Tag!: its key tagId) to null (every read of the record would then fail); give them a value or leave them out")
    }
}
