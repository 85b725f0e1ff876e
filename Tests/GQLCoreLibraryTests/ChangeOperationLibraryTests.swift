import GQLCore
import Testing

/// A blog server with post p1 and its comment c1: it deletes p1, lists c1 as pointing at it, and answers a raw query.
private final class BlogWithOneComment: HTTPTransport, @unchecked Sendable {
    func send(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse {
        let query = (try? JSONValue.parse(request.body))?["query"]?.stringValue ?? ""
        let data: JSONValue
        if query.contains("deletePost(") {
            data = ["deletePost": ["id": "p1", "title": "Hello"]]
        } else if query.contains("listComments(") {
            data = ["listComments": ["items": [["id": "c1"]], "nextToken": .null]]
        } else if query.contains("getPost(") {
            data = ["getPost": ["title": "Hello"]]
        } else {
            return HTTPResponse(status: 400, text: "unexpected query")
        }
        return HTTPResponse(status: 200, text: JSONValue.object(["data": data]).serialized(.compact))
    }
}

/// A Swift program deletes a record and learns, as `gqlc delete` says, which records still point at it; and sends a
/// document of its own as `gqlc raw` does.
@Suite struct ChangeOperationLibraryTests {
    private func context() throws -> APIContext {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        let schema = try #require(try SchemaLoader.load(path: path + "/schema-examples/blog.json").schema)
        let endpoint = try Endpoint(url: "https://example.appsync-api.eu-west-1.amazonaws.com/graphql", apiKey: "da2-key", timeout: 30)
        return APIContext(schema: schema, client: GraphQLClient(endpoint: endpoint, transport: BlogWithOneComment()))
    }

    @Test func aProgramDeletesAndHearsOfTheRecordsLeftPointing() throws {
        let context = try context()
        var operation = try DeleteOperation("Post", key: .id("p1"), builder: context.builder)
        operation.reportsEnvelope = false
        var deleted: JSONValue?
        var pointing: [String] = []
        let kind = operation.run(in: context) { event in
            switch event {
            case .result(let record): deleted = record
            case .recordsLeftPointing(_, let association, let related, _): pointing.append("\(association): \(related)")
            default: Issue.record("unexpected \(event)")
            }
            return true
        }
        #expect(kind == .success)
        #expect(deleted?["title"] == "Hello")
        #expect(pointing == ["comments: Comment"])
    }

    @Test func aProgramSendsItsOwnDocument() throws {
        let context = try context()
        let operation = try RawOperation(
            document: "query One($id: ID!) { getPost(id: $id) { title } }", variables: ["id": "p1"], decodePath: ["getPost", "title"])
        var results: [JSONValue] = []
        #expect(operation.run(in: context) { event in
            if case .result(let value) = event { results.append(value) }
            return true
        } == .success)
        #expect(results == ["Hello"])
    }
}
