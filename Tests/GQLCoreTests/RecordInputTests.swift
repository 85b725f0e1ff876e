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

    private func createInput(_ builder: RequestBuilder, _ model: String, _ input: JSONValue) throws -> String {
        let request = try builder.create(model, values: RecordValues(input: input))
        return request.variables["input"]?.serialized() ?? ""
    }

    @Test func aBelongsToInInputSetsItsForeignKey() throws {
        // The related record, as Amplify JS and DataStore records carry it; its key; or the key's value.
        #expect(try createInput(blog, "Post", ["id": "n1", "title": "x", "blog": ["id": "b1", "name": "Kitchen", "__typename": "Blog"]])
            == #"{"blogId":"b1","id":"n1","title":"x"}"#)
        #expect(try createInput(blog, "Post", ["id": "n1", "title": "x", "blog": "b1"]) == #"{"blogId":"b1","id":"n1","title":"x"}"#)
        // Null sets nothing; the foreign key given too must agree.
        #expect(try createInput(blog, "Post", ["id": "n1", "title": "x", "blog": nil]) == #"{"id":"n1","title":"x"}"#)
        #expect(try createInput(blog, "Post", ["id": "n1", "title": "x", "blogId": "b1", "blog": ["id": "b1"]])
            == #"{"blogId":"b1","id":"n1","title":"x"}"#)
        #expect(message { try blog.create("Post", values: RecordValues(input: ["title": "x", "blogId": "b2", "blog": ["id": "b1"]])) }
            == "input: 'blogId' is already set by 'blog' to another value; give it once")
        #expect(message { try blog.create("Post", values: RecordValues(input: ["title": "x", "blog": ["name": "Kitchen"]])) }
            == "input: blog: expected the Blog's key field 'id', found an object without it")
    }

    @Test(.enabled(if: TestPaths.hasSharedFixtures, "the shared Amplify fixtures are not beside this checkout"))
    func aCompositeBelongsToTakesItsKeyObject() throws {
        let cpk = TestSchemas.builder(try TestSchemas.gen1CPK())
        #expect(try createInput(cpk, "Comment3", ["commentId": "c", "content": "hi", "post": ["postId": "p", "title": "T"]])
            == #"{"commentId":"c","content":"hi","postId":"p","postTitle":"T"}"#)
        #expect(message { try cpk.create("Comment3", values: RecordValues(input: ["commentId": "c", "content": "hi", "post": "p"])) }
            == "input: 'post' on Comment3 points to a composite key; use its foreign-key fields 'postId', 'postTitle' instead "
            + "(or, in input, the related record's key object)")
    }
}
