import Foundation
import Testing
@testable import GQLCore

/// Loads the example and fixture schemas once.
enum TestSchemas {
    static func load(_ path: String) throws -> ModelSchema {
        try #require(try SchemaLoader.load(path: path).schema)
    }
    static func blog() throws -> ModelSchema { try load(TestPaths.example("blog.json")) }
    static func tags() throws -> ModelSchema { try load(TestPaths.example("tags.json")) }
    static func inventory() throws -> ModelSchema { try load(TestPaths.example("inventory.json")) }
    static func gen1Blog() throws -> ModelSchema { try load(TestPaths.fixture("gen1-blog-hasmany-belongsto.mis.json")) }
    static func gen1CPK() throws -> ModelSchema { try load(TestPaths.fixture("gen1-cpk-hasone-hasmany-manytomany.mis.json")) }
    static func shipments() throws -> ModelSchema { try load(TestPaths.example("shipments.json")) }
    static func cartCustomer() throws -> ModelSchema { try load(TestPaths.fixture("gen2-cart-customer.amplify_outputs.json")) }
    static func gen1Conventions() throws -> ModelSchema { try load(TestPaths.projectFixture("gen1-conventions.mis.json")) }
    static func gen2Conventions() throws -> ModelSchema { try load(TestPaths.projectFixture("gen2-conventions.mis.json")) }
    static func customOperations() throws -> ModelSchema { try load(TestPaths.projectFixture("custom-operations.mis.json")) }
    static func gen2Modeled() throws -> ModelSchema { try load(TestPaths.fixture("gen2-amplify-data-modeled.mis.json")) }

    /// A builder whose generated ids are fixed, for stable goldens.
    static func builder(_ schema: ModelSchema) -> RequestBuilder {
        RequestBuilder(schema: schema, makeID: { "00000000-0000-0000-0000-000000000001" })
    }
}

/// One golden request: how to build it, and the files `Golden/<name>.graphql` and `Golden/<name>.json`
/// (the compact variables) that hold the expected output. Files named `gen1-blog-*` are also validated
/// against the transformed AppSync SDL, and `fixture-*` against appsync-local's SDL of the project fixture,
/// by `Golden/test_golden_documents.py`.
struct GoldenCase: CustomStringConvertible, Sendable {
    let name: String
    let schema: @Sendable () throws -> ModelSchema
    let build: @Sendable (RequestBuilder) throws -> GraphQLRequest
    var description: String { name }
}

@Suite struct GoldenDocumentTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static let cases: [GoldenCase] = [
        // schema-examples/blog.json
        GoldenCase(name: "blog-get-post", schema: TestSchemas.blog) { try $0.get("Post", key: .id("p1")) },
        GoldenCase(name: "blog-get-post-include-comments", schema: TestSchemas.blog) {
            try $0.get("Post", key: .id("p1"), include: ["comments"])
        },
        GoldenCase(name: "blog-get-post-include-blog-comments-post", schema: TestSchemas.blog) {
            try $0.get("Post", key: .id("p1"), include: ["comments.post", "blog", "comments"])
        },
        GoldenCase(name: "blog-get-comment-include-post-comments", schema: TestSchemas.blog) {
            try $0.get("Comment", key: .fields(["id=c1"]), include: ["post.comments"])
        },
        GoldenCase(name: "blog-get-blog-include-posts-comments", schema: TestSchemas.blog) {
            try $0.get("Blog", key: .id("b1"), include: ["posts.comments"])
        },
        GoldenCase(name: "blog-list-posts", schema: TestSchemas.blog) { try $0.list("Post") },
        GoldenCase(name: "blog-list-posts-where-next-token", schema: TestSchemas.blog) {
            try $0.list("Post", filter: FilterInput(where: ["status=PUBLISHED", "rating>=3", "title^=Swift"]),
                        limit: 50, nextToken: "token-2")
        },
        GoldenCase(name: "blog-list-comments-where-post", schema: TestSchemas.blog) {
            try $0.list("Comment", filter: FilterInput(where: ["post=p1"]))
        },
        GoldenCase(name: "blog-list-posts-filter-json-and-where", schema: TestSchemas.blog) {
            try $0.list("Post", filter: FilterInput(where: ["featured=true"], json: ["or": [["views": ["gt": 10]], ["score": ["ge": .number(JSONNumber(4.5))]]]]))
        },
        GoldenCase(name: "blog-index-comments-by-post", schema: TestSchemas.blog) {
            try $0.indexList("Comment", index: "commentsByPostId", filter: FilterInput(where: ["post=p1"]))
        },
        GoldenCase(name: "blog-index-posts-by-blog-begins-with-desc", schema: TestSchemas.blog) {
            try $0.indexList("Post", index: "byBlog", filter: FilterInput(where: ["title^=Swift", "rating>=3", "blog=b1"]),
                             sortDirection: .desc, limit: 20, nextToken: "t1")
        },
        GoldenCase(name: "blog-create-post", schema: TestSchemas.blog) {
            try $0.create("Post", values: RecordValues(assignments: [
                "title=Hello", "rating=5", "status=DRAFT", "tags:=[\"swift\",\"graphql\"]", "blog=b1",
                "metadata:={\"wordCount\":120,\"source\":{\"url\":\"https://example.com\"}}", "score=4.5", "featured=false",
            ]))
        },
        GoldenCase(name: "blog-update-post-if", schema: TestSchemas.blog) {
            try $0.update("Post", key: .id("p1"), values: RecordValues(assignments: ["title=New title", "content=null"]),
                          condition: FilterInput(where: ["status=DRAFT"]))
        },
        GoldenCase(name: "blog-update-post", schema: TestSchemas.blog) {
            try $0.update("Post", key: .id("p1"), values: RecordValues(assignments: ["views=10"]))
        },
        GoldenCase(name: "blog-delete-post", schema: TestSchemas.blog) { try $0.delete("Post", key: .id("p1")) },
        GoldenCase(name: "blog-delete-post-if", schema: TestSchemas.blog) {
            try $0.delete("Post", key: .id("p1"), condition: FilterInput(where: ["rating<2", "content!?"]))
        },
        GoldenCase(name: "blog-subscription-oncreate-post", schema: TestSchemas.blog) {
            try $0.subscription("Post", event: .onCreate)
        },
        GoldenCase(name: "blog-subscription-onupdate-post-filter", schema: TestSchemas.blog) {
            try $0.subscription("Post", event: .onUpdate, filter: FilterInput(where: ["blog=b1"]))
        },
        GoldenCase(name: "blog-connection-page-post-comments", schema: TestSchemas.blog) {
            try $0.connectionPage(parent: "Post", key: ["id": "p1", "title": "ignored"], field: "comments",
                                  include: try $0.includeTree("Comment", paths: ["post"]), nextToken: "t2")
        },
        // schema-examples/tags.json: many-to-many through the ArticleTags join model
        GoldenCase(name: "tags-get-article-include-tags-tag", schema: TestSchemas.tags) {
            try $0.get("Article", key: .id("a1"), include: ["tags.tag"])
        },
        GoldenCase(name: "tags-create-articletags", schema: TestSchemas.tags) {
            try $0.create("ArticleTags", values: RecordValues(assignments: ["article=a1", "tag=t1"]))
        },
        GoldenCase(name: "tags-list-articletags-where-tag", schema: TestSchemas.tags) {
            try $0.list("ArticleTags", filter: FilterInput(where: ["tag=t1"]), include: ["article"])
        },
        // schema-examples/inventory.json: composite key sku + warehouseId + bin (Int)
        GoldenCase(name: "inventory-get-item", schema: TestSchemas.inventory) {
            try $0.get("InventoryItem", key: .fields(["sku=A-1", "warehouseId=w1", "bin=3"]))
        },
        GoldenCase(name: "inventory-update-item-if", schema: TestSchemas.inventory) {
            try $0.update("InventoryItem", key: .fields(["bin=3", "sku=A-1", "warehouseId=w1"]),
                          values: RecordValues(assignments: ["quantity=7", "kind=FINISHED"]),
                          condition: FilterInput(where: ["quantity>=1"]))
        },
        GoldenCase(name: "inventory-delete-item", schema: TestSchemas.inventory) {
            try $0.delete("InventoryItem", key: .fields(["sku=A-1", "warehouseId=w1", "bin=3"]))
        },
        GoldenCase(name: "inventory-create-item", schema: TestSchemas.inventory) {
            try $0.create("InventoryItem", values: RecordValues(
                assignments: ["price=9.99"], input: ["sku": "A-1", "warehouseId": "w1", "bin": 3, "quantity": 10]))
        },
        GoldenCase(name: "inventory-get-warehouse-include-items", schema: TestSchemas.inventory) {
            try $0.get("Warehouse", key: .id("w1"), include: ["items"])
        },
        GoldenCase(name: "inventory-list-items-where", schema: TestSchemas.inventory) {
            try $0.list("InventoryItem", filter: FilterInput(where: ["kind=RAW", "price=1..2.5", "warehouse=w1"]))
        },
        GoldenCase(name: "inventory-index-items-by-warehouse-between", schema: TestSchemas.inventory) {
            try $0.indexList("InventoryItem", index: "itemsByWarehouse", filter: FilterInput(where: ["warehouse=w1", "quantity=1..5"]))
        },
        // schema-examples/shipments.json: a composite sort key (region, day)
        GoldenCase(name: "shipments-index-by-carrier-composite", schema: TestSchemas.shipments) {
            try $0.indexList("Shipment", index: "shipmentsByCarrier",
                             filter: FilterInput(where: ["carrier=ups", "region=eu", "day=2025-01-02", "weight>1"]))
        },
        GoldenCase(name: "inventory-connection-page-warehouse-items", schema: TestSchemas.inventory) {
            try $0.connectionPage(parent: "Warehouse", key: ["warehouseId": "w1"], field: "items",
                                  include: IncludeTree(), limit: 100, nextToken: "t")
        },
        // Tests/Fixtures/schemas: the project's own Gen 1 and Gen 2 conventions (validated against appsync-local's SDL)
        GoldenCase(name: "fixture-gen1-get-shelf-include-books-library", schema: TestSchemas.gen1Conventions) {
            try $0.get("Shelf", key: .id("s1"), include: ["books", "library"])
        },
        GoldenCase(name: "fixture-gen1-list-books-where-shelf", schema: TestSchemas.gen1Conventions) {
            try $0.list("Book", filter: FilterInput(where: ["shelf=s1"]))
        },
        GoldenCase(name: "fixture-gen1-create-book", schema: TestSchemas.gen1Conventions) {
            try $0.create("Book", values: RecordValues(assignments: ["title=Dune", "shelf=s1", "genre=FICTION"]))
        },
        GoldenCase(name: "fixture-gen1-get-author-include-profile", schema: TestSchemas.gen1Conventions) {
            try $0.get("Author", key: .fields(["authorId=a1", "name=Ann"]), include: ["profile"])
        },
        GoldenCase(name: "fixture-gen1-get-reader-include-clubs-club", schema: TestSchemas.gen1Conventions) {
            try $0.get("Reader", key: .id("r1"), include: ["clubs.club"])
        },
        GoldenCase(name: "fixture-gen1-get-episode-include-series-episodes", schema: TestSchemas.gen1Conventions) {
            try $0.get("Episode", key: .fields(["episodeId=e1", "number=2"]), include: ["series.episodes"])
        },
        GoldenCase(name: "fixture-gen2-get-shopper-include-basket-orders", schema: TestSchemas.gen2Conventions) {
            try $0.get("Shopper", key: .id("s1"), include: ["basket", "orders"])
        },
        GoldenCase(name: "fixture-gen2-get-store-include-shelves", schema: TestSchemas.gen2Conventions) {
            try $0.get("Store", key: .fields(["region=eu", "storeId=s1"]), include: ["shelves"])
        },
        GoldenCase(name: "fixture-gen2-index-orders-by-status", schema: TestSchemas.gen2Conventions) {
            try $0.indexList("Order", index: "listOrdersByStatus", filter: FilterInput(where: ["status=PAID"]))
        },
        // Tests/Fixtures/schemas/custom-operations.mis.json: custom queries, mutations and a subscription
        GoldenCase(name: "fixture-custom-query-echoargs", schema: TestSchemas.customOperations) {
            try $0.custom("echoArgs", kind: .query, arguments: RecordValues(assignments: [
                "text=hi", "count=3", "ratio=1.5", "flag=true", "status=DRAFT", "tags=a", "when=2025-01-01T00:00:00Z",
                "meta:={\"a\": [1]}", "range:={\"low\": 1, \"high\": 2}",
            ]))
        },
        GoldenCase(name: "fixture-custom-query-shout", schema: TestSchemas.customOperations) {
            try $0.custom("shout", kind: .query, arguments: RecordValues(assignments: ["text=hey"]))
        },
        GoldenCase(name: "fixture-custom-query-tagsof", schema: TestSchemas.customOperations) {
            try $0.custom("tagsOf", kind: .query, arguments: RecordValues(input: ["tags": ["x", "y"]]))
        },
        GoldenCase(name: "fixture-custom-query-featuredpost-include-comments", schema: TestSchemas.customOperations) {
            try $0.custom("featuredPost", kind: .query, arguments: RecordValues(assignments: ["id=p1"]), include: ["comments"])
        },
        GoldenCase(name: "fixture-custom-query-poststats", schema: TestSchemas.customOperations) {
            try $0.custom("postStats", kind: .query, arguments: RecordValues(
                assignments: ["filter:={\"status\": \"PUBLISHED\", \"range\": {\"low\": 1}, \"titles\": [\"a\"]}"]))
        },
        GoldenCase(name: "fixture-custom-query-statuses", schema: TestSchemas.customOperations) {
            try $0.custom("statuses", kind: .query)
        },
        GoldenCase(name: "fixture-custom-mutation-likepost", schema: TestSchemas.customOperations) {
            try $0.custom("likePost", kind: .mutation, arguments: RecordValues(assignments: ["postId=p1"]))
        },
        GoldenCase(name: "fixture-custom-mutation-archiveposts", schema: TestSchemas.customOperations) {
            try $0.custom("archivePosts", kind: .mutation, arguments: RecordValues(assignments: ["ids:=[\"p1\", \"p2\"]", "reason=old"]))
        },
        GoldenCase(name: "fixture-custom-subscription-onpostliked", schema: TestSchemas.customOperations) {
            try $0.custom("onPostLiked", kind: .subscription, arguments: RecordValues(assignments: ["postId=p1"]))
        },
    ]

    /// Cases over the real Amplify files in the shared fixtures; they run only when those are there.
    static let sharedCases: [GoldenCase] = [
        // Shared fixtures: the custom operations of Amplify's data-schema fixture (a.query(), a.mutation(), a.subscription())
        GoldenCase(name: "gen2-modeled-query-echo", schema: TestSchemas.gen2Modeled) {
            try $0.custom("echo", kind: .query, arguments: RecordValues(assignments: ["argumentContent=hello"]))
        },
        GoldenCase(name: "gen2-modeled-query-echonestedcustomtypes", schema: TestSchemas.gen2Modeled) {
            try $0.custom("echoNestedCustomTypes", kind: .query, arguments: RecordValues(assignments: ["input=hi"]))
        },
        GoldenCase(name: "gen2-modeled-query-echomodelhasnestedtypes", schema: TestSchemas.gen2Modeled) {
            try $0.custom("echoModelHasNestedTypes", kind: .query, arguments: RecordValues(assignments: ["input=hi"]))
        },
        GoldenCase(name: "gen2-modeled-mutation-likepostreturnpost", schema: TestSchemas.gen2Modeled) {
            try $0.custom("likePostReturnPost", kind: .mutation, arguments: RecordValues(assignments: ["postId=p1"]))
        },
        GoldenCase(name: "gen2-modeled-subscription-onpostupdated", schema: TestSchemas.gen2Modeled) {
            try $0.custom("onPostUpdated", kind: .subscription, arguments: RecordValues(assignments: ["postId=p1"]))
        },
        // Shared fixtures: an owner rule whose owner field the schema leaves to the transformer; selected everywhere
        GoldenCase(name: "gen2-modeled-create-todo-owner", schema: TestSchemas.gen2Modeled) {
            try $0.create("Todo", values: RecordValues(assignments: ["name=Buy milk"]))
        },
        GoldenCase(name: "gen2-modeled-list-todos-where-owner", schema: TestSchemas.gen2Modeled) {
            try $0.list("Todo", filter: FilterInput(where: ["owner=alice"]))
        },
        GoldenCase(name: "gen2-modeled-subscription-oncreate-todo-owner", schema: TestSchemas.gen2Modeled) {
            try $0.subscription("Todo", event: .onCreate)
        },
        // Shared fixtures: Gen1 blog with implicit foreign keys (validated against its AppSync SDL)
        GoldenCase(name: "gen1-blog-get-post-include-comments", schema: TestSchemas.gen1Blog) {
            try $0.get("Post", key: .id("p1"), include: ["comments", "blog"])
        },
        GoldenCase(name: "gen1-blog-list-comments-where-post", schema: TestSchemas.gen1Blog) {
            try $0.list("Comment", filter: FilterInput(where: ["post=p1"]))
        },
        GoldenCase(name: "gen1-blog-list-posts-next-token", schema: TestSchemas.gen1Blog) {
            try $0.list("Post", filter: FilterInput(where: ["title*=swift", "blog?"]), limit: 10, nextToken: "abc")
        },
        GoldenCase(name: "gen1-blog-create-comment", schema: TestSchemas.gen1Blog) {
            try $0.create("Comment", values: RecordValues(assignments: ["content=Nice", "post=p1"]))
        },
        GoldenCase(name: "gen1-blog-update-post-if", schema: TestSchemas.gen1Blog) {
            try $0.update("Post", key: .id("p1"), values: RecordValues(assignments: ["title=T", "blog=null"]),
                          condition: FilterInput(where: ["title^=Draft"]))
        },
        GoldenCase(name: "gen1-blog-delete-comment-if", schema: TestSchemas.gen1Blog) {
            try $0.delete("Comment", key: .id("c1"), condition: FilterInput(where: ["content!=keep"]))
        },
        GoldenCase(name: "gen1-blog-subscription-ondelete-comment-filter", schema: TestSchemas.gen1Blog) {
            try $0.subscription("Comment", event: .onDelete, filter: FilterInput(where: ["content*=spam"]))
        },
        GoldenCase(name: "gen1-blog-connection-page-blog-posts", schema: TestSchemas.gen1Blog) {
            try $0.connectionPage(parent: "Blog", key: ["id": "b1"], field: "posts",
                                  include: try $0.includeTree("Post", paths: ["comments"]), nextToken: "n")
        },
        // Shared fixtures: Gen2 hasOne whose key lives on the child
        GoldenCase(name: "gen2-cart-get-customer-include-activecart", schema: TestSchemas.cartCustomer) {
            try $0.get("Customer", key: .id("c1"), include: ["activeCart"])
        },
        GoldenCase(name: "gen2-cart-list-carts-where-customer", schema: TestSchemas.cartCustomer) {
            try $0.list("Cart", filter: FilterInput(where: ["customer=c1"]))
        },
        // Shared fixtures: composite keys and composite foreign keys
        GoldenCase(name: "gen1-cpk-get-comment1", schema: TestSchemas.gen1CPK) {
            try $0.get("Comment1", key: .fields(["commentId=c1", "content=hi"]), include: ["post.comments"])
        },
        GoldenCase(name: "gen1-cpk-get-project1-include-team", schema: TestSchemas.gen1CPK) {
            try $0.get("Project1", key: .fields(["projectId=p1", "name=n"]), include: ["team"])
        },
        GoldenCase(name: "gen1-cpk-get-post-include-tags-tag", schema: TestSchemas.gen1CPK) {
            try $0.get("Post", key: .fields(["customPostId=p1", "title=T"]), include: ["tags.tag"])
        },
        GoldenCase(name: "gen1-cpk-list-comment1-where-fks", schema: TestSchemas.gen1CPK) {
            try $0.list("Comment1", filter: FilterInput(where: ["post1CommentsPostId=p1", "post1CommentsTitle=T"]))
        },
    ]

    @Test(arguments: cases)
    func matchesGolden(_ golden: GoldenCase) throws {
        try Self.check(golden)
    }

    @Test(.enabled(if: TestPaths.hasSharedFixtures, "the shared Amplify fixtures are not beside this checkout"),
          arguments: sharedCases)
    func matchesGoldenOverSharedFixtures(_ golden: GoldenCase) throws {
        try Self.check(golden)
    }

    /// `GQLC_UPDATE_GOLDEN=1` rewrites the golden files from the code, and fails every case it rewrote.
    static var isRecording: Bool { ProcessInfo.processInfo.environment["GQLC_UPDATE_GOLDEN"] == "1" }

    static func check(_ golden: GoldenCase) throws {
        let request = try golden.build(TestSchemas.builder(try golden.schema()))
        let variables = JSONValue.object(request.variables).serialized(.compact)
        let documentURL = Self.directory.appendingPathComponent(golden.name + ".graphql")
        let variablesURL = Self.directory.appendingPathComponent(golden.name + ".json")
        if isRecording {
            // Record mode never passes: what was just written proves nothing until a plain run compares it
            // (as swift-argument-parser's assertSnapshot does). Review the diff, then run again without it.
            try request.query.write(to: documentURL, atomically: true, encoding: .utf8)
            try (variables + "\n").write(to: variablesURL, atomically: true, encoding: .utf8)
            Issue.record("""
                recorded Golden/\(golden.name).graphql and .json (GQLC_UPDATE_GOLDEN=1); review the diff, \
                then run the tests again without GQLC_UPDATE_GOLDEN
                """)
            return
        }
        let expectedDocument = try String(contentsOf: documentURL, encoding: .utf8)
        let expectedVariables = try String(contentsOf: variablesURL, encoding: .utf8)
        #expect(request.query == expectedDocument)
        #expect(variables + "\n" == expectedVariables)
        #expect(!request.query.hasSuffix("\n"))
    }

    @Test func everyGoldenFileHasACase() throws {
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".graphql") }.map { String($0.dropLast(".graphql".count)) })
        #expect(names == Set((Self.cases + Self.sharedCases).map(\.name)))
    }
}
