import GQLCore
import Testing

/// An API holding `blogs`, listed on one page: what a Swift program would diff.
private struct BlogsServer: HTTPTransport {
    let blogs: String

    func send(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse {
        HTTPResponse(status: 200, text: #"{"data":{"listBlogs":{"items":[\#(blogs)],"nextToken":null}}}"#)
    }
}

/// The whole-app jobs through the library's public API alone, as a Swift program uses them.
@Suite struct DataJobLibraryTests {
    @Test func aProgramDiffsTwoAPIsModelByModel() throws {
        let schema = try #require(try SchemaLoader.load(path: #filePath.replacingSuffix(3) + "/schema-examples/blog.json").schema)
        let endpoint = try Endpoint(url: "https://example.appsync-api.eu-west-1.amazonaws.com/graphql", apiKey: "da2-key", timeout: 30)
        func side(_ blogs: String) -> DiffSide {
            let client = GraphQLClient(endpoint: endpoint, transport: BlogsServer(blogs: blogs))
            return .api(JobContext(schema: schema) { _ throws(ContextError) in client })
        }
        let operation = try DiffOperation(
            models: ["Blog"], schema: schema, from: side(#"{"id":"b1","name":"A"},{"id":"b2","name":"B"}"#),
            to: side(#"{"id":"b2","name":"B"},{"id":"b1","name":"Z"}"#), incomplete: { _, _, _ in })
        var differences: [RecordDifference] = []
        var counts: [String: DiffCounts] = [:]
        let outcome = operation.run(reason: { "\($0)" }, emit: { differences.append($0) }, finished: { counts[$0] = $1 })
        #expect(outcome.differ)
        #expect(differences.map(\.operation) == [.changed] && differences.first?.fields == ["name"])
        #expect(counts["Blog"]?.changed == 1 && counts["Blog"]?.compared == 2)
    }
}

extension String {
    /// The path `levels` folders up.
    fileprivate func replacingSuffix(_ levels: Int) -> String {
        var path = self
        for _ in 0..<levels { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }
}
