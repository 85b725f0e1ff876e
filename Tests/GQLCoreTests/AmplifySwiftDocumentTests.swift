import Foundation
import Testing
@testable import GQLCore

/// gqlc builds "the same documents that Amplify's Swift library builds" (README). These are Amplify Swift's
/// own expected documents, copied as they stand in its unit tests (aws-amplify/amplify-swift,
/// `AmplifyPlugins/Core/AWSPluginsCoreTests/Model/GraphQLDocument/`), for its test models `Post` and
/// `Comment` (`AmplifyTestCommon/Models/Post+Schema.swift`, `Comment+Schema.swift`), written here as the
/// model-introspection JSON that describes the same models. Unlike the goldens, gqlc never wrote them.
///
/// Amplify Swift's `primaryKeysOnly` selection is gqlc's: a belongs-to field holds the related key and
/// `__typename`. The Gen 2 JS client's documents (research notes §4.9) are laid out differently (one line,
/// no operation name, `__typename` only on connections), and gqlc does not claim to build those.
@Suite struct AmplifySwiftDocumentTests {
    static func builder() throws -> RequestBuilder {
        let file = try SchemaLoader.load(bytes: Array(Self.testModels.utf8), path: "amplify-swift-test-models.json")
        return RequestBuilder(schema: try #require(file.schema), makeID: { "generated-id" })
    }

    /// GraphQLGetQueryTests.swift (commit 0b684a1847729c98f5d2bab833f5759629661b39),
    /// `testGetGraphQLQueryFromSimpleModel`.
    @Test func getPost() throws {
        let request = try Self.builder().get("Post", key: .id("id"))
        #expect(request.query == """
            query GetPost($id: ID!) {
              getPost(id: $id) {
                id
                content
                createdAt
                draft
                rating
                status
                title
                updatedAt
                __typename
              }
            }
            """)
        #expect(request.variables == ["id": "id"])
    }

    /// GraphQLGetQueryTests.swift (commit 0b684a1847729c98f5d2bab833f5759629661b39),
    /// `testGetGraphQLQueryFromModelWithAssociationPrimaryKeysOnly`.
    @Test func getCommentSelectsThePostsKeyOnly() throws {
        let request = try Self.builder().get("Comment", key: .id("id"))
        #expect(request.query == """
            query GetComment($id: ID!) {
              getComment(id: $id) {
                id
                content
                createdAt
                post {
                  id
                  __typename
                }
                __typename
              }
            }
            """)
    }

    /// GraphQLCreateMutationTests.swift (commit 1844fc544e36b50c2bbfd813c148878bd098d124),
    /// `testCreateGraphQLMutationFromSimpleModel`: the input holds the given values (and the generated id).
    @Test func createPost() throws {
        let request = try Self.builder().create("Post", values: RecordValues(assignments: [
            "title=title", "content=content", "createdAt=2020-01-01T00:00:00.000Z", "status=PRIVATE",
        ]))
        #expect(request.query == """
            mutation CreatePost($input: CreatePostInput!) {
              createPost(input: $input) {
                id
                content
                createdAt
                draft
                rating
                status
                title
                updatedAt
                __typename
              }
            }
            """)
        let input = try #require(request.variables["input"]?.objectValue)
        #expect(input["title"] == "title" && input["content"] == "content" && input["status"] == "PRIVATE")
    }

    /// GraphQLCreateMutationTests.swift (commit 1844fc544e36b50c2bbfd813c148878bd098d124),
    /// `testCreateGraphQLMutationFromModelWithAssociation`: the post goes in as `commentPostId`, the
    /// belongs-to's target name. (Its selection there is the whole post; gqlc's is `primaryKeysOnly`.)
    @Test func createCommentSendsThePostAsItsTargetName() throws {
        let request = try Self.builder().create("Comment", values: RecordValues(assignments: [
            "content=comment", "createdAt=2020-01-01T00:00:00.000Z", "post=post-id",
        ]))
        #expect(request.query.hasPrefix("mutation CreateComment($input: CreateCommentInput!) {\n  createComment(input: $input) {"))
        #expect(request.variables["input"]?.objectValue?["commentPostId"] == "post-id")
    }

    /// GraphQLDeleteMutationTests.swift (commit 13b73898e41f38aa84351996a0ca8620fe14f424),
    /// `testDeleteGraphQLMutationFromSimpleModel`: the input is the key alone.
    @Test func deletePost() throws {
        let request = try Self.builder().delete("Post", key: .id("post-id"))
        #expect(request.query == """
            mutation DeletePost($input: DeletePostInput!) {
              deletePost(input: $input) {
                id
                content
                createdAt
                draft
                rating
                status
                title
                updatedAt
                __typename
              }
            }
            """)
        #expect(request.variables == ["input": ["id": "post-id"]])
    }

    /// GraphQLListQueryTests.swift (commit aff4a881ccedf055a0c24f7130c62345410ae8f9),
    /// `testListGraphQLQueryFromSimpleModel`: with a filter, `$filter` and `$limit` (1000) are declared.
    @Test func listPostsWithAFilter() throws {
        let request = try Self.builder().list("Post", filter: FilterInput(where: ["status=PUBLISHED"]))
        #expect(request.query == """
            query ListPosts($filter: ModelPostFilterInput, $limit: Int) {
              listPosts(filter: $filter, limit: $limit) {
                items {
                  id
                  content
                  createdAt
                  draft
                  rating
                  status
                  title
                  updatedAt
                  __typename
                }
                nextToken
              }
            }
            """)
        #expect(request.variables["limit"] == 1000)
    }

    /// Amplify Swift's test models `Post` and `Comment` as model-introspection JSON: the fields, types and
    /// nullability of `Post+Schema.swift` and `Comment+Schema.swift` (`.double` is GraphQL's Float).
    static let testModels = #"""
        {"version": 1, "enums": {"PostStatus": {"name": "PostStatus", "values": ["PRIVATE", "DRAFT", "PUBLISHED"]}},
         "nonModels": {},
         "models": {
          "Post": {"name": "Post", "pluralName": "Posts", "syncable": true,
           "attributes": [{"type": "model", "properties": {}}],
           "primaryKeyInfo": {"isCustomPrimaryKey": false, "primaryKeyFieldName": "id", "sortKeyFieldNames": []},
           "fields": {
            "id": {"name": "id", "isArray": false, "type": "ID", "isRequired": true, "attributes": []},
            "title": {"name": "title", "isArray": false, "type": "String", "isRequired": true, "attributes": []},
            "content": {"name": "content", "isArray": false, "type": "String", "isRequired": true, "attributes": []},
            "createdAt": {"name": "createdAt", "isArray": false, "type": "AWSDateTime", "isRequired": true, "attributes": []},
            "updatedAt": {"name": "updatedAt", "isArray": false, "type": "AWSDateTime", "isRequired": false, "attributes": []},
            "draft": {"name": "draft", "isArray": false, "type": "Boolean", "isRequired": false, "attributes": []},
            "rating": {"name": "rating", "isArray": false, "type": "Float", "isRequired": false, "attributes": []},
            "status": {"name": "status", "isArray": false, "type": {"enum": "PostStatus"}, "isRequired": false, "attributes": []},
            "comments": {"name": "comments", "isArray": true, "type": {"model": "Comment"}, "isRequired": false,
                         "attributes": [], "isArrayNullable": true,
                         "association": {"connectionType": "HAS_MANY", "associatedWith": ["post"]}}}},
          "Comment": {"name": "Comment", "pluralName": "Comments", "syncable": true,
           "attributes": [{"type": "model", "properties": {}}],
           "primaryKeyInfo": {"isCustomPrimaryKey": false, "primaryKeyFieldName": "id", "sortKeyFieldNames": []},
           "fields": {
            "id": {"name": "id", "isArray": false, "type": "ID", "isRequired": true, "attributes": []},
            "content": {"name": "content", "isArray": false, "type": "String", "isRequired": true, "attributes": []},
            "createdAt": {"name": "createdAt", "isArray": false, "type": "AWSDateTime", "isRequired": true, "attributes": []},
            "post": {"name": "post", "isArray": false, "type": {"model": "Post"}, "isRequired": true, "attributes": [],
                     "association": {"connectionType": "BELONGS_TO", "targetNames": ["commentPostId"]}}}}}}
        """#
}
