import Foundation
import Testing
@testable import GQLCore

@Suite struct ResponseClassificationTests {
    private func classify(_ status: Int, _ text: String, headers: [HTTPHeader] = []) -> Result<GraphQLResponse, ExecutionError> {
        Result { () throws(ExecutionError) in try ResponseClassifier.classify(HTTPResponse(status: status, headers: headers, text: text)) }
    }

    private func statusError(_ status: Int, _ text: String, headers: [HTTPHeader] = []) throws -> HTTPStatusError {
        guard case .failure(.httpStatus(let error)) = classify(status, text, headers: headers) else {
            throw ClassificationMismatch(expected: "an HTTP status error")
        }
        return error
    }

    private func invalid(_ status: Int, _ text: String) throws -> InvalidResponseError {
        guard case .failure(.invalidResponse(let error)) = classify(status, text) else {
            throw ClassificationMismatch(expected: "an invalid-response error")
        }
        return error
    }

    struct ClassificationMismatch: Error { let expected: String }

    @Test func dataIsDecoded() throws {
        let response = try classify(200, #"{"data":{"getPost":{"id":"p1","n":12345678901234567890}}}"#).get()
        #expect(response.errors.isEmpty)
        #expect(response.data?["getPost"]?["n"]?.numberText == "12345678901234567890")
    }

    @Test func appSyncErrorsAreDecodedWithTheirExtras() throws {
        let text = #"""
            {"data":{"updatePost":null},"errors":[{"path":["updatePost"],"data":null,"errorType":"DynamoDB:ConditionalCheckFailedException",
             "errorInfo":null,"locations":[{"line":2,"column":3,"sourceName":null}],"message":"The conditional request failed"}]}
            """#
        let response = try classify(200, text).get()
        let error = try #require(response.errors.first)
        #expect(error.errorType == "DynamoDB:ConditionalCheckFailedException")
        #expect(error.errorInfo == nil)
        #expect(error.path == [.key("updatePost")])
        #expect(error.locations == [GraphQLError.Location(line: 2, column: 3)])
        #expect(error.description == "DynamoDB:ConditionalCheckFailedException: The conditional request failed (path: updatePost)")
    }

    @Test func errorTypeFallsBackToExtensions() throws {
        let response = try classify(200, #"""
            {"data":null,"errors":[{"message":"a","extensions":{"errorType":"Unauthorized"}},
                                   {"message":"b","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}},
                                   {"message":"c","errorInfo":{"k":1},"path":["listPosts","items",3,"title"]}]}
            """#).get()
        #expect(response.errors.map(\.errorType) == ["Unauthorized", "GRAPHQL_VALIDATION_FAILED", nil])
        #expect(response.errors[2].errorInfo == ["k": 1])
        #expect(response.errors[2].description == "c (path: listPosts.items[3].title)")
    }

    @Test func oneLineRenderingFlattensMessagesAndFallsBackToLocation() {
        let error = GraphQLError(message: "Validation error of type FieldUndefined:\n  Field 'x' is undefined", locations: [.init(line: 1, column: 9)])
        #expect(error.description == "Validation error of type FieldUndefined: Field 'x' is undefined (at 1:9)")
        #expect(GraphQLError(message: "").description == "(no message)")
    }

    @Test func unauthorizedCarriesTypeAndMessage() throws {
        let error = try statusError(401, #"{"errors":[{"errorType":"UnauthorizedException","message":"Valid authorization header not provided."}]}"#)
        #expect(error.status == 401)
        #expect(error.errorType == "UnauthorizedException")
        #expect(error.message == "Valid authorization header not provided.")
        #expect(error.description.hasPrefix("HTTP 401 Unauthorized: UnauthorizedException: Valid authorization header not provided.; check"))
        #expect(ExecutionError.httpStatus(error).kind == .httpError)
    }

    @Test func malformedRequestIsAnHTTPError() throws {
        let error = try statusError(400, #"{"errors":[{"errorType":"MalformedHttpRequestException","message":"Unable to parse GraphQL query."}]}"#)
        #expect(error.errorType == "MalformedHttpRequestException")
        #expect(error.message == "Unable to parse GraphQL query.")
    }

    @Test func throttlingAndServerErrorsWithoutJSONUseTheHeaderOrExcerpt() throws {
        let throttled = try statusError(429, "Rate exceeded", headers: [HTTPHeader(name: "x-amzn-ErrorType", value: "ThrottlingException:http://internal")])
        #expect(throttled.errorType == "ThrottlingException")
        #expect(throttled.retryAfter == nil)
        let empty = try statusError(500, "")
        #expect(empty.excerpt == "(empty body)")
        #expect(empty.description == "HTTP 500 Internal Server Error: (empty body)")
    }

    @Test func htmlErrorPageShowsItsTitle() throws {
        let page = "<!DOCTYPE html>\n<html><head>\n<title>502 Bad\n Gateway</title></head><body><h1>502</h1></body></html>"
        let error = try statusError(502, page)
        #expect(error.excerpt == "502 Bad Gateway")
        #expect(error.errorType == nil && error.message == nil)
        #expect(error.description == "HTTP 502 Bad Gateway")
        #expect(try statusError(502, "<title>upstream down</title>").description == "HTTP 502 Bad Gateway: upstream down")
    }

    @Test func htmlWithoutTitleShowsItsFirstText() throws {
        let error = try statusError(503, "<html>\n<body>\n  <h1>  Service   down </h1><p>later</p></body></html>")
        #expect(error.excerpt == "Service down")
    }

    @Test func longTextBodyIsCutToOneShortLine() throws {
        let error = try statusError(504, "   \n" + String(repeating: "x", count: 300) + "\nsecond line")
        #expect(error.excerpt == String(repeating: "x", count: 100) + "…")
    }

    @Test func htmlWithSuccessStatusIsNotJSON() throws {
        let error = try invalid(200, "<html><title>Login</title></html>")
        guard case .notJSON(let status, let parseError, let excerpt) = error else { Issue.record("got \(error)"); return }
        #expect(status == 200)
        #expect((parseError.line, parseError.column) == (1, 1))
        #expect(excerpt == "Login")
        #expect(error.description.contains("at 1:1"))
    }

    @Test func truncatedJSONReportsWhereItEnds() throws {
        let error = try invalid(200, "{\"data\":{\"getPost\":\n{\"id\":\"p1\"")
        guard case .notJSON(_, let parseError, _) = error else { Issue.record("got \(error)"); return }
        #expect((parseError.line, parseError.column) == (2, 11))
        #expect(ExecutionError.invalidResponse(error).kind == .httpError)
    }

    @Test(arguments: [
        ("", "not JSON"),
        (#"{"foo":1}"#, "neither 'data' nor 'errors' (it has 'foo')"),
        ("[1,2]", "an array"),
        (#"{"data":"x"}"#, "'data' is a string"),
        (#"{"data":[]}"#, "'data' is an array"),
        (#"{"errors":"boom"}"#, "'errors' is a string"),
        (#"{"errors":[1]}"#, "errors[0] is a number"),
    ])
    func jsonThatIsNotGraphQLIsRejected(body: String, expected: String) throws {
        let error = try invalid(200, body)
        #expect(error.description.contains(expected), "\(error.description)")
    }

    @Test func extremeNestingIsAnErrorNotACrash() throws {
        let depth = 100_000
        let body = #"{"data":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let error = try invalid(200, body)
        guard case .notJSON(_, let parseError, _) = error else { Issue.record("got \(error)"); return }
        #expect(parseError.message.contains("nested more than 512 levels"))
        // The same body on an error status falls back to an excerpt.
        let status = try statusError(500, String(repeating: "{\"a\":", count: depth))
        #expect(status.excerpt?.hasSuffix("…") == true)
    }

    @Test func singleErrorObjectIsAccepted() throws {
        let response = try classify(200, #"{"errors":{"errorType":"LimitExceededError","message":"Rate limit exceeded"}}"#).get()
        #expect(response.errors.map(\.errorType) == ["LimitExceededError"])
    }
}

@Suite struct ResponseOutcomeTests {
    private func response(_ text: String) throws -> GraphQLResponse {
        try GraphQLResponse(json: JSONValue.parse(text))
    }

    @Test func decodePathFindsNestedValues() throws {
        let response = try response(#"{"data":{"listPosts":{"items":[{"id":"1"}],"nextToken":null}}}"#)
        #expect(try response.value(at: ["listPosts", "items"]) == [["id": "1"]])
        #expect(try response.value(at: ["listPosts", "nextToken"]) == .null)
        #expect(try response.value(at: []).objectValue?.keys == ["listPosts"])
    }

    @Test func missingDecodePathSaysWhere() throws {
        let response = try response(#"{"data":{"listPosts":{"items":[]}}}"#)
        #expect(throws: DecodePathError.self) { try response.value(at: ["getPost"]) }
        let missing = DecodePathError(path: ["listPosts", "edges"], failedAt: 1, found: "no 'edges'")
        #expect(missing.description == "the response has no 'edges' in data.listPosts")
        do {
            _ = try response.value(at: ["listPosts", "items", "id"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "expected an object at data.listPosts.items but found an array")
        }
        let noData = try self.response(#"{"data":null,"errors":[]}"#)
        #expect(throws: DecodePathError(path: ["getPost"], failedAt: 0, found: "no data")) { try noData.value(at: ["getPost"]) }
    }

    @Test func outcomes() throws {
        let found = try response(#"{"data":{"getPost":{"id":"1"}}}"#)
        #expect(try found.outcome(decodePath: ["getPost"], nullIsNotFound: true) == .success(["id": "1"]))

        let null = try response(#"{"data":{"getPost":null}}"#)
        #expect(try null.outcome(decodePath: ["getPost"], nullIsNotFound: true) == .notFound)
        #expect(try null.outcome(decodePath: ["getPost"], nullIsNotFound: false) == .success(.null))
        #expect(RequestOutcome.notFound.kind == .notFound)

        let conditionFailed = try response(#"{"data":{"updatePost":null},"errors":[{"message":"failed","path":["updatePost"]}]}"#)
        let failed = try conditionFailed.outcome(decodePath: ["updatePost"], nullIsNotFound: true)
        #expect(failed == .failed(conditionFailed.errors))
        #expect(failed.kind == .graphQLErrors)

        let partial = try response(#"{"data":{"getPost":{"id":"1","blog":null}},"errors":[{"message":"blog failed","path":["getPost","blog"]}]}"#)
        let partialOutcome = try partial.outcome(decodePath: ["getPost"], nullIsNotFound: true)
        #expect(partialOutcome == .partial(["id": "1", "blog": nil], partial.errors))
        #expect(partialOutcome.kind == .partial)

        let noData = try response(#"{"errors":[{"message":"Validation error"}]}"#)
        #expect(try noData.outcome(decodePath: ["getPost"], nullIsNotFound: true) == .failed(noData.errors))
    }

    @Test func rawOutcomeCountsRootMembers() throws {
        let allNull = try response(#"{"data":{"a":null,"b":null},"errors":[{"message":"x"}]}"#)
        #expect(try allNull.outcome(decodePath: [], nullIsNotFound: false) == .failed(allNull.errors))
        let some = try response(#"{"data":{"a":1,"b":null},"errors":[{"message":"x"}]}"#)
        #expect(try some.outcome(decodePath: [], nullIsNotFound: false).kind == .partial)
    }

    @Test func missingResultWithoutErrorsIsAnInvalidResponse() throws {
        let response = try response(#"{"data":{"other":1}}"#)
        #expect(throws: InvalidResponseError.missingResult(DecodePathError(path: ["getPost"], failedAt: 0, found: "no 'getPost'"))) {
            try response.outcome(decodePath: ["getPost"], nullIsNotFound: true)
        }
    }

    @Test func exitCodesMatchTheDocumentation() {
        #expect(ExecutionError.transport(.network("x"), attempts: 1).kind == .network)
        #expect(ExecutionError.transport(.timeout(seconds: 1), attempts: 4).kind == .network)
        #expect(ExecutionError.transport(.invalidURL("x", detail: "y"), attempts: 1).kind == .invalidInput)
        #expect(ExecutionError.invalidResponse(.notGraphQL("x")).kind == .httpError)
        #expect(ExecutionError.httpStatus(HTTPStatusError(status: 503)).kind == .httpError)
    }
}
