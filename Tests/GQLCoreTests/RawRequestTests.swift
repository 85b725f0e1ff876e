import GQLCore
import Testing

/// `RequestBuilder.raw`: a document given as it is, checked before anything is sent.
@Suite struct RawRequestTests {
    @Test func aValidQueryIsSentAsGiven() throws {
        let text = "query Q($id: ID!) { getPost(id: $id) { id title } }"
        let request = try RequestBuilder.raw(document: text, variables: ["id": "p1"], decodePath: ["getPost"])
        #expect(request.query == text && request.variables == ["id": "p1"] && request.operationName == nil)
        #expect(request.decodePath == ["getPost"] && request.decodePathIsGiven && request.operationType == .query)
    }

    @Test func withSeveralOperationsTheChosenOneIsNamed() throws {
        let request = try RequestBuilder.raw(document: "query A { a } mutation B { b }", variables: [:], operationName: "B")
        #expect(request.operationName == "B" && request.operationType == .mutation)
    }

    /// A subscription document is a request like the others; ``RealtimeSubscriber`` runs it under its root field.
    @Test func aSubscriptionIsAcceptedAndNamedByItsRootField() throws {
        let request = try RequestBuilder.raw(
            document: "query Q { a } subscription S { liked: onPostLiked(postId: \"p1\") { id } }", variables: [:],
            operationName: "S")
        #expect(request.operationType == .subscription && request.operationName == "S")
        #expect(RealtimeSubscription(request: request).name == "liked")
        let bare = try RequestBuilder.raw(document: "subscription { onCreatePost { id } }", variables: [:])
        #expect(RealtimeSubscription(request: bare).name == "onCreatePost")
    }

    @Test func eachProblemIsTyped() {
        func problem(_ text: String, variables: JSONObject = [:], name: String? = nil, path: [String] = []) -> RawRequestError? {
            do {
                _ = try RequestBuilder.raw(document: text, variables: variables, operationName: name, decodePath: path)
                return nil
            } catch {
                return error
            }
        }
        guard case .syntax? = problem("query {") else { Issue.record("expected a syntax error"); return }
        guard case .invalid? = problem("query { a } query { b }") else { Issue.record("expected a validation error"); return }
        #expect(problem("query A { a } query B { b }") == .operation(.ambiguous(names: ["A", "B"])))
        guard case .variable(.missing(let name, _, _))? = problem("query Q($id: ID!) { getPost(id: $id) { id } }") else {
            Issue.record("expected a missing variable")
            return
        }
        #expect(name == "id")
        guard case .decodePath? = problem("query { getPost { id } }", path: ["listPosts"]) else {
            Issue.record("expected a decode-path mismatch")
            return
        }
    }

    /// Data without the path the caller gave is the path's problem; without a given path, an invalid response.
    @Test func dataWithoutTheGivenPathIsPathNotFound() throws {
        let response = GraphQLResponse(data: ["other": 1])
        guard case .pathNotFound? = try? response.outcome(decodePath: ["getPost"], nullIsNotFound: false, pathIsGiven: true) else {
            Issue.record("expected pathNotFound")
            return
        }
        #expect(throws: InvalidResponseError.self) { try response.outcome(decodePath: ["getPost"], nullIsNotFound: false) }
    }
}
