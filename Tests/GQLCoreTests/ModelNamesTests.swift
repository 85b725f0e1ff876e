import Testing

@testable import GQLCore

/// The names a model offers for each kind of value (what shell completion lists), read against the blog schema:
/// Blog hasMany Post hasMany Comment, each belongsTo its parent; createdAt and updatedAt are read-only.
@Suite struct ModelNamesTests {
    @Test func settableFieldsLeaveOutTheReadOnlyOnesAndUpdatesTheKey() throws {
        let schema = try TestSchemas.blog()
        let comment = try #require(schema.models["Comment"])
        // The belongs-to association `post` sets postId, so it is offered beside it.
        #expect(schema.names(.assign, of: comment) == ["id", "content", "author", "likes", "postId", "post"])
        #expect(schema.names(.change, of: comment) == ["content", "author", "likes", "postId", "post"])
        // The has-many `comments` of Post cannot be set.
        #expect(!schema.names(.assign, of: try #require(schema.models["Post"])).contains("comments"))
    }

    @Test func filtersTakeScalarsAndBelongsToAssociations() throws {
        let schema = try TestSchemas.blog()
        let comment = try #require(schema.models["Comment"])
        #expect(schema.names(.where, of: comment) == ["id", "content", "author", "likes", "postId", "post", "createdAt", "updatedAt"])
        #expect(!schema.names(.where, of: try #require(schema.models["Post"])).contains("comments"))
    }

    @Test func pathsGoOneLevelIntoFieldsAndTwoIntoAssociations() throws {
        let schema = try TestSchemas.blog()
        let post = try #require(schema.models["Post"])
        #expect(schema.names(.include, of: post) == ["blog", "blog.posts", "comments", "comments.post"])
        let fields = schema.names(.fields, of: post)
        // A has-many list's fields are under `items`, a belongs-to's directly; associations of associations are not.
        #expect(fields.contains("comments.items.content") && fields.contains("blog.name"))
        #expect(!fields.contains("comments.content") && !fields.contains("blog.posts"))
        #expect(schema.names(.index, of: post) == ["postsByBlogId"])
        #expect(schema.names(.index, of: try #require(schema.models["Blog"])).isEmpty)
    }
}
