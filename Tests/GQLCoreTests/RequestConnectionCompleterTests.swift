import Testing
@testable import GQLCore

/// A fake server: answers follow-up pages from a table keyed by root field, parent id and token.
private final class FakeServer {
    var pages: [String: JSONValue] = [:]
    var requests: [GraphQLRequest] = []

    func fetch(_ request: GraphQLRequest) throws -> JSONValue {
        requests.append(request)
        let parent = request.variables["id"]?.stringValue ?? "?"
        let token = request.variables["nextToken"]?.stringValue ?? "?"
        let key = "\(request.decodePath.joined(separator: ".")) \(parent) \(token)"
        guard let connection = pages[key] else { throw RequestBuildError.unexpectedResponse(path: key, reason: "no such page") }
        guard request.decodePath.count == 2 else { return .null }
        return [request.decodePath[0]: [request.decodePath[1]: connection, "__typename": "X"]]
    }
}

@Suite struct ConnectionCompleterTests {
    let builder: RequestBuilder
    init() throws { builder = TestSchemas.builder(try TestSchemas.blog()) }

    private func post(_ id: String, comments: [String], token: String?) -> JSONValue {
        ["id": .string(id), "title": "t", "__typename": "Post",
         "comments": ["items": .array(comments.map { ["id": .string($0), "__typename": "Comment"] }), "nextToken": token.map(JSONValue.string) ?? .null]]
    }

    @Test func followsTokensAtEveryDepth() throws {
        let server = FakeServer()
        server.pages["getBlog.posts b1 bp1"] = ["items": [post("p2", comments: ["c3"], token: "pc2")], "nextToken": "bp2"]
        server.pages["getBlog.posts b1 bp2"] = ["items": [], "nextToken": nil]   // an empty page may still carry on
        server.pages["getPost.comments p1 pc1"] = ["items": [["id": "c2", "__typename": "Comment"]], "nextToken": nil]
        server.pages["getPost.comments p2 pc2"] = ["items": [["id": "c4", "__typename": "Comment"]], "nextToken": nil]
        let fetched: JSONValue = [
            "id": "b1", "__typename": "Blog",
            "posts": ["items": [post("p1", comments: ["c1"], token: "pc1")], "nextToken": "bp1"],
        ]
        let include = try builder.includeTree("Blog", paths: ["posts.comments"])
        let completer = ConnectionCompleter(builder: builder, pageLimit: 50, fetch: server.fetch)
        let complete = try completer.complete(fetched, model: "Blog", include: include)

        let posts = try #require(complete["posts"])
        #expect(posts["nextToken"] == .null)
        #expect(posts["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["p1", "p2"])
        let comments = posts["items"]?.arrayValue?.map { $0["comments"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }
        #expect(comments == [["c1", "c2"], ["c3", "c4"]])
        #expect(posts["items"]?.arrayValue?.allSatisfy { $0["comments"]?["nextToken"] == .null } == true)
        #expect(server.requests.map { $0.variables.serialized() } == [
            #"{"id":"b1","limit":50,"nextToken":"bp1"}"#,
            #"{"id":"b1","limit":50,"nextToken":"bp2"}"#,
            #"{"id":"p1","limit":50,"nextToken":"pc1"}"#,
            #"{"id":"p2","limit":50,"nextToken":"pc2"}"#,
        ])
        // Pages of posts select each post's comments too, so their tokens can be followed.
        #expect(server.requests[0].query.contains("        comments {\n          items {"))
    }

    @Test func followsThroughBelongsToAndLists() throws {
        let server = FakeServer()
        server.pages["getPost.comments p1 t"] = ["items": [["id": "c2"]], "nextToken": nil]
        let include = try builder.includeTree("Comment", paths: ["post.comments"])
        let record: JSONValue = ["id": "c1", "post": post("p1", comments: ["c1"], token: "t")]
        let completer = ConnectionCompleter(builder: builder, fetch: server.fetch)
        let list = try completer.complete([record, .null], model: "Comment", include: include)
        #expect(list[0]?["post"]?["comments"]?["items"]?.arrayValue?.count == 2)
        #expect(list.arrayValue?.last == .null)
        #expect(server.requests.first?.variables["limit"] == .number(JSONNumber(Defaults.includedPageSize)))  // Amplify's 100
    }

    @Test func leavesRecordsWithoutTokensAlone() throws {
        let server = FakeServer()
        let include = try builder.includeTree("Post", paths: ["comments", "blog"])
        let record = post("p1", comments: ["c1"], token: nil)
        let completer = ConnectionCompleter(builder: builder, fetch: server.fetch)
        #expect(try completer.complete(record, model: "Post", include: include) == record)
        #expect(try completer.complete(record, model: "Post", include: IncludeTree()) == record)
        #expect(server.requests.isEmpty)
    }

    @Test func aRepeatedTokenStopsTheLoop() throws {
        let server = FakeServer()
        server.pages["getPost.comments p1 same"] = ["items": [], "nextToken": "same"]
        let include = try builder.includeTree("Post", paths: ["comments"])
        let completer = ConnectionCompleter(builder: builder, fetch: server.fetch)
        #expect(throws: RequestBuildError.repeatedNextToken(field: "comments")) {
            try completer.complete(post("p1", comments: [], token: "same"), model: "Post", include: include)
        }
        #expect(server.requests.count == 1)
    }

    @Test func aVanishedParentIsReported() throws {
        let include = try builder.includeTree("Post", paths: ["comments"])
        let completer = ConnectionCompleter(builder: builder, fetch: { _ in ["getPost": nil] })
        #expect(throws: RequestBuildError.unexpectedResponse(path: "getPost", reason: "missing or null")) {
            try completer.complete(post("p1", comments: [], token: "t"), model: "Post", include: include)
        }
    }
}

extension JSONValue {
    fileprivate subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
