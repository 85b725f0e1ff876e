import Testing
@testable import GQLCore

@Suite struct RequestBuilderTests {
    let blog: RequestBuilder
    let inventory: RequestBuilder
    init() throws {
        blog = TestSchemas.builder(try TestSchemas.blog())
        inventory = TestSchemas.builder(try TestSchemas.inventory())
    }

    private func message(_ body: () throws -> GraphQLRequest) -> String? { errorMessage(body) }

    @Test func doneWhenGetPostWithCommentsIsAValidBody() throws {
        let request = try blog.get("Post", key: .id("p1"), include: ["comments"])
        #expect(request.operationType == .query)
        #expect(request.decodePath == ["getPost"])
        #expect(request.operationName == nil)
        let body = request.body.serialized()
        #expect(body.hasPrefix(#"{"query":"query GetPost($id: ID!) {\n  getPost(id: $id) {\n    id\n    blogId\n"#))
        #expect(body.hasSuffix(#"__typename\n  }\n}","variables":{"id":"p1"}}"#))
    }

    @Test func valuesNeverReachTheDocumentText() throws {
        let hostile = "p1\") { __schema { types { name } } } #"
        let request = try blog.get("Post", key: .id(hostile))
        #expect(!request.query.contains("__schema"))
        #expect(request.variables["id"] == .string(hostile))
        let list = try blog.list("Post", filter: FilterInput(where: ["title=\(hostile)"]), nextToken: hostile)
        #expect(!list.query.contains("__schema"))
    }

    @Test func unknownModelSuggests() {
        #expect(message { try blog.get("Psot", key: .id("1")) } == "unknown model 'Psot'; did you mean 'Post'?")
        #expect(message { try blog.list("Zebra") } == "unknown model 'Zebra'")
    }

    /// Equally close names give the same suggestion whatever order they come in: a dictionary's keys (models,
    /// enums, embedded types) come in a different order in every process.
    @Test func tiedSuggestionsDoNotDependOnTheOrderOfTheNames() {
        #expect(Suggestions.closest(to: "tab", in: ["tag", "tub"]) == "tag")
        #expect(Suggestions.closest(to: "tab", in: ["tub", "tag"]) == "tag")
        #expect(Suggestions.closest(to: "tab", in: ["tub", "tab", "tag"]) == "tab")
    }

    @Test func keysOfEveryShape() throws {
        #expect(try blog.get("Post", key: .fields(["id=p1"])).variables.serialized() == #"{"id":"p1"}"#)
        #expect(try inventory.get("Warehouse", key: .id("w1")).query.hasPrefix("query GetWarehouse($warehouseId: ID!) {\n  getWarehouse(warehouseId: $warehouseId) {"))
        let item = try inventory.delete("InventoryItem", key: .fields(["warehouseId=w1", "bin=0", "sku=S"]))
        #expect(item.variables.serialized() == #"{"input":{"bin":0,"sku":"S","warehouseId":"w1"}}"#)
    }

    @Test(arguments: [
        (KeyInput.id("x"), "id 'x': InventoryItem has a composite key; give key FIELD=VALUE for each of sku, warehouseId, bin"),
        (KeyInput.fields(["sku=S", "warehouseId=w"]), "missing key field 'bin' (InventoryItem's key is sku, warehouseId, bin)"),
        (KeyInput.fields(["sku=S", "warehouseId=w", "bin=x"]), "key 'bin=x': 'x' is not an Int"),
        (KeyInput.fields(["sku=S", "warehouseId=w", "bin=null"]), "key 'bin=null': 'null' is not an Int"),
        (KeyInput.fields(["sku=S", "sku=T"]), "key 'sku=T': key field 'sku' is given more than once"),
        (KeyInput.fields(["skus=S"]), "key 'skus=S': 'skus' is not a key field of InventoryItem (its key is sku, warehouseId, bin); did you mean 'sku'?"),
        (KeyInput.fields(["quantity=1"]), "key 'quantity=1': 'quantity' is not a key field of InventoryItem (its key is sku, warehouseId, bin)"),
        (KeyInput.fields(["sku"]), "key 'sku': expected FIELD=VALUE"),
    ])
    func compositeKeyErrors(_ key: KeyInput, _ expected: String) {
        #expect(message { try inventory.get("InventoryItem", key: key) } == expected)
    }

    @Test func listVariablesAndPaging() throws {
        let pages = try blog.listPages("Post", filter: FilterInput(where: ["rating>1"]))
        let first = try pages.request(limit: 2, nextToken: nil)
        let second = try pages.request(limit: 2, nextToken: "t")
        #expect(first.variables.serialized() == #"{"filter":{"rating":{"gt":1}},"limit":2}"#)
        #expect(second.variables.serialized() == #"{"filter":{"rating":{"gt":1}},"limit":2,"nextToken":"t"}"#)
        #expect(first.query.hasPrefix("query ListPosts($filter: ModelPostFilterInput, $limit: Int) {"))
        #expect(second.query.hasPrefix("query ListPosts($filter: ModelPostFilterInput, $limit: Int, $nextToken: String) {\n  listPosts(filter: $filter, limit: $limit, nextToken: $nextToken) {"))
        #expect(first.decodePath == ["listPosts"])
        #expect(try blog.list("Post") == (try blog.listPages("Post").request()))
        #expect(throws: RequestBuildError.invalidLimit(0)) { try pages.request(limit: 0) }
    }

    /// Amplify Swift adds its `FilterDecorator` only `if let filter` (`GraphQLRequest+toListQuery.swift`): without a
    /// filter, a list declares `$limit` only, for the listing and for an included list's follow-up pages alike.
    @Test func listWithoutAFilterDeclaresNoFilter() throws {
        let first = try blog.list("Post")
        #expect(first.query.hasPrefix("query ListPosts($limit: Int) {\n  listPosts(limit: $limit) {\n    items {\n"))
        #expect(first.variables.serialized() == #"{"limit":1000}"#)
        let next = try blog.list("Post", limit: 5, nextToken: "t")
        #expect(next.query.hasPrefix("query ListPosts($limit: Int, $nextToken: String) {\n  listPosts(limit: $limit, nextToken: $nextToken) {"))
        #expect(next.variables.serialized() == #"{"limit":5,"nextToken":"t"}"#)
        let index = try blog.indexList("Comment", index: "commentsByPostId", filter: FilterInput(where: ["post=p1"]))
        #expect(index.query.hasPrefix("query CommentsByPostId($limit: Int, $postId: ID!) {\n  commentsByPostId(limit: $limit, postId: $postId) {"))
        let follow = try blog.connectionPage(parent: "Post", key: ["id": "p1"], field: "comments", include: IncludeTree(), nextToken: "n")
        #expect(follow.query.hasPrefix("query GetPost($id: ID!, $limit: Int, $nextToken: String) {\n  getPost(id: $id) {\n    comments(limit: $limit, nextToken: $nextToken) {"))
        #expect(!follow.query.contains("filter"))
    }

    @Test func includeErrors() {
        #expect(message { try blog.get("Post", key: .id("p"), include: ["coments"]) }
            == "include 'coments': unknown field 'coments' on Post; did you mean 'comments'?")
        #expect(message { try blog.get("Post", key: .id("p"), include: ["comments.psot"]) }
            == "include 'comments.psot': unknown field 'psot' on Comment; did you mean 'post'?")
        #expect(message { try blog.get("Post", key: .id("p"), include: ["title"]) }
            == "include 'title': 'title' on Post is not a relationship; include takes belongsTo, hasOne and hasMany fields; "
                + "Post's associations: blog, comments")
        #expect(message { try blog.get("Post", key: .id("p"), include: ["author"]) }
            == "include 'author': unknown field 'author' on Post; Post's associations: blog, comments")
        #expect(message { try blog.get("Comment", key: .id("c"), include: ["post.qqq"]) }
            == "include 'post.qqq': unknown field 'qqq' on Post; Post's associations: blog, comments")
        #expect(message { try blog.get("Post", key: .id("p"), include: ["comments..post"]) }
            == "include 'comments..post': empty path segment; write paths like comments or post.comments")
    }

    @Test func includeTreesMergeSharedBranches() throws {
        let tree = try blog.includeTree("Post", paths: ["comments.post", "comments", "blog"])
        #expect(tree.branches.map(\.field) == ["blog", "comments"])
        #expect(tree.branch("comments")?.subtree.branches.map(\.field) == ["post"])
        #expect(tree.branch("comments")?.kind == .hasMany)
        #expect(tree.branch("blog")?.relatedModel == "Blog")
    }

    @Test func updateKeepsOnlyGivenFieldsAndChecksKeys() throws {
        let update = try blog.update("Post", key: .id("p1"), values: RecordValues(assignments: ["views=2"]))
        #expect(update.variables.serialized() == #"{"input":{"id":"p1","views":2}}"#)
        #expect(!update.query.contains("$condition"))
        #expect(update.operationType == .mutation)
        #expect(update.decodePath == ["updatePost"])
        #expect(message { try blog.update("Post", key: .id("p1"), values: RecordValues(assignments: ["id=p2"])) }
            == "'id=p2': 'id' is part of Post's key; give it with id or key, not as a field value")
        #expect(message { try blog.update("Post", key: .id("p1"), values: RecordValues(input: ["id": "p2"])) }
            == "key field 'id' is given two different values")
        #expect(try blog.update("Post", key: .id("p1"), values: RecordValues(input: ["id": "p1", "title": "t"])).variables.serialized()
            == #"{"input":{"id":"p1","title":"t"}}"#)
        #expect(message { try blog.update("Post", key: nil, values: RecordValues(assignments: ["title=x"])) }
            == "Post needs its key: give id VALUE")
        #expect(message { try inventory.update("InventoryItem", key: .fields(["sku=S", "warehouseId=w", "bin=1"]),
                                               values: RecordValues(assignments: ["warehouse=w2"])) }
            == "'warehouse=w2': 'warehouseId' is part of InventoryItem's key; give it with id or key, not as a field value")
        #expect(message { try blog.update("Post", key: .id("p1"), values: RecordValues(), condition: FilterInput(where: ["id=p1"])) }
            == "condition 'id=p1': 'id' is part of Post's key; a condition cannot test key fields")
    }

    @Test func createWithACustomKeyNeedsEveryKeyField() {
        #expect(message { try inventory.create("InventoryItem", values: RecordValues(assignments: ["sku=S", "quantity=1"])) }
            == "create InventoryItem: missing required fields 'warehouseId' (ID!), 'bin' (Int!)")
    }

    @Test func renamedAndDisabledOperations() throws {
        var schema = try TestSchemas.blog()
        schema.models["Post"]?.operations.list = "allPosts"
        schema.models["Post"]?.operations.get = "fetchPost"
        schema.models["Post"]?.operations.delete = nil
        schema.models["Post"]?.operations.onCreate = nil
        let builder = TestSchemas.builder(schema)
        let list = try builder.list("Post")
        #expect(list.query.hasPrefix("query AllPosts($limit: Int) {\n  allPosts(limit: $limit) {"))
        #expect(list.decodePath == ["allPosts"])
        #expect(try builder.get("Post", key: .id("p")).query.hasPrefix("query FetchPost($id: ID!) {\n  fetchPost(id: $id) {"))
        #expect(message { try builder.delete("Post", key: .id("p")) } == "Post has no delete operation: the schema disables it")
        #expect(message { try builder.subscription("Post", event: .onCreate) } == "Post has no onCreate operation: the schema disables it")
        // A follow-up page goes through the renamed get.
        let page = try builder.connectionPage(parent: "Post", key: ["id": "p"], field: "comments", include: IncludeTree(), nextToken: "t")
        #expect(page.decodePath == ["fetchPost", "comments"])
    }

    @Test func connectionPageErrors() {
        #expect(message { try blog.connectionPage(parent: "Post", key: ["id": "p"], field: "blog", include: IncludeTree(), nextToken: "t") }
            == "'blog' on Post is not a relationship; include takes belongsTo, hasOne and hasMany fields; "
                + "Post's associations: blog, comments")
        #expect(message { try blog.connectionPage(parent: "Post", key: [:], field: "comments", include: IncludeTree(), nextToken: "t") }
            == "missing key field 'id' (Post's key is id)")
    }

    @Test func embeddedTypesThatContainThemselvesStop() throws {
        let schema = ModelSchema(
            models: ["Node": Model(name: "Node", pluralName: "Nodes",
                                   fields: [ModelField(name: "id", type: .scalar("ID")), ModelField(name: "tree", type: .nonModel("Tree"))],
                                   primaryKey: PrimaryKey())],
            nonModels: ["Tree": NonModelType(name: "Tree", fields: [
                ModelField(name: "label", type: .scalar("String")), ModelField(name: "child", type: .nonModel("Tree")),
            ])])
        let query = try TestSchemas.builder(schema).get("Node", key: .id("n")).query
        #expect(query == "query GetNode($id: ID!) {\n  getNode(id: $id) {\n    id\n    tree {\n      label\n      __typename\n    }\n    __typename\n  }\n}")
    }
}
