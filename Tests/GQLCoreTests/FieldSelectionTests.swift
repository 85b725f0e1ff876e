import Testing
@testable import GQLCore

/// `--fields`: the selection narrowed to named paths, key fields and `__typename` always kept.
@Suite struct FieldSelectionTests {
    let blog: RequestBuilder
    init() throws { blog = TestSchemas.builder(try TestSchemas.blog()) }

    private func message(_ body: () throws -> GraphQLRequest) -> String? { errorMessage(body) }

    /// The document printed on one line, for short expectations.
    private func flat(_ request: GraphQLRequest) -> String {
        request.query.split(separator: "\n").map { $0.trimmingSpaces }.joined(separator: " ")
    }

    @Test func keyFieldsAreAlwaysSelected() throws {
        let request = try blog.get("Post", key: .id("p1"), fields: .paths(["title"]))
        #expect(flat(request) == "query GetPost($id: ID!) { getPost(id: $id) { id title __typename } }")
    }

    /// Amplify's own custom selection set `['id', 'members.*']` on a hasMany (research notes, modeling-relationships
    /// snapshot): `members { items { … } }`; gqlc keeps the connection's nextToken to follow it.
    @Test func nestedPathsGoThroughItemsWhichMayBeLeftOut() throws {
        let spelled = try blog.get("Post", key: .id("p1"), include: ["comments"], fields: .paths(["comments.items.content"]))
        let short = try blog.get("Post", key: .id("p1"), include: ["comments"], fields: .paths(["comments.content"]))
        #expect(flat(spelled) == "query GetPost($id: ID!) { getPost(id: $id) { id comments { items { id content __typename } nextToken } __typename } }")
        #expect(spelled.query == short.query)
    }

    @Test func embeddedAndBelongsToPaths() throws {
        let request = try blog.get("Post", key: .id("p1"), include: ["blog"], fields: .paths(["metadata.wordCount", "blog.name"]))
        #expect(flat(request) == "query GetPost($id: ID!) { getPost(id: $id) { id metadata { wordCount __typename } blog { id name __typename } __typename } }")
    }

    @Test func aWholeAssociationKeepsItsFullSelection() throws {
        let all = try blog.get("Post", key: .id("p1"), include: ["comments"])
        let named = try blog.get("Post", key: .id("p1"), include: ["comments"], fields: .paths(["comments"]))
        func comments(_ request: GraphQLRequest) -> Substring? {
            let text = flat(request)
            guard let start = text.range(of: "comments { "), let end = text.range(of: "nextToken }", range: start.upperBound..<text.endIndex)
            else { return nil }
            return text[start.lowerBound..<end.upperBound]
        }
        #expect(comments(named) != nil && comments(named) == comments(all))
        #expect(flat(named).hasPrefix("query GetPost($id: ID!) { getPost(id: $id) { id comments { items { id "))
    }

    @Test func countingPagesAskForTheKeyOnly() throws {
        let pages = try blog.listPages("Post", fields: .keysOnly)
        #expect(flat(pages.page(limit: 1000, nextToken: nil)) == "query ListPosts($limit: Int) { listPosts(limit: $limit) { items { id __typename } nextToken } }")
    }

    /// A create, update or delete returns the narrowed depth-0 selection; belongsTo keys stay reachable.
    @Test func mutationsReturnTheNamedFields() throws {
        let delete = try blog.delete("Post", key: .id("p1"), fields: .paths(["title", "blog.id"]))
        #expect(flat(delete).hasSuffix("deletePost(input: $input) { id title blog { id __typename } __typename } }"))
        let create = try blog.create("Post", values: RecordValues(assignments: ["id=p9", "title=t", "blogId=b1"]), fields: .paths(["title"]))
        #expect(flat(create).hasSuffix("createPost(input: $input) { id title __typename } }"))
        #expect(message { try blog.update("Post", key: .id("p"), values: RecordValues(assignments: ["title=x"]), fields: .paths(["comments.content"])) }
            == "fields 'comments.content': 'comments' on Post is not returned: a create, update or delete returns only the "
                + "record's own fields and the keys of the records it belongs to")
        #expect(throws: RequestBuildError.self) { try blog.checkMutationFields("Post", fields: .paths(["blog.name"])) }
    }

    @Test func unknownAndUnfetchedFieldsSayWhatToDo() {
        #expect(message { try blog.get("Post", key: .id("p"), fields: .paths(["titel"])) }
            == "fields 'titel': unknown field 'titel' on Post; did you mean 'title'?")
        #expect(message { try blog.get("Post", key: .id("p"), fields: .paths(["comments.content"])) }
            == "fields 'comments.content': 'comments' on Post is in an association that is not fetched; add include comments")
        #expect(message { try blog.get("Post", key: .id("p"), fields: .paths(["blog.name"])) }
            == "fields 'blog.name': 'name' on Blog is in an association that is not fetched; add include blog")
        #expect(message { try blog.get("Post", key: .id("p"), fields: .paths(["title.length"])) }
            == "fields 'title.length': 'title' on Post is a scalar field; it has no fields to select")
        #expect(message { try blog.get("Post", key: .id("p"), include: ["comments"], fields: .paths(["comments.items.contnt"])) }
            == "fields 'comments.items.contnt': unknown field 'contnt' on Comment; did you mean 'content'?")
    }

    @Test func followUpPagesOfAListSelectTheSameFields() throws {
        let below = FieldSelection.paths(["title", "comments.items.content", "comments.author"]).below("comments")
        #expect(below == .paths(["content", "author"]))
        #expect(FieldSelection.paths(["comments"]).below("comments") == .all)
        let page = try blog.connectionPage(parent: "Post", key: ["id": "p1"], field: "comments", include: IncludeTree(),
                                           fields: below, nextToken: "t")
        #expect(flat(page).contains("items { id author content __typename } nextToken"))
    }
}
