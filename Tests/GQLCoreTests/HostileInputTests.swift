import Glibc
import Testing
@testable import GQLCore

/// Issue 22's core rules: names from a schema are GraphQL names, deadlines saturate, a server's keep-alive
/// interval is bounded, paging stops on endless empty pages, and bad responses are not retried.
@Suite struct HostileInputTests {
    private func loadError(_ text: String) -> SchemaError? {
        do {
            _ = try SchemaLoader.load(bytes: Array(text.utf8), path: "s.json")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"models":{"Post":{"name":"Post","fields":{"id":{"name":"id","type":"ID"},"t":{"name":"t } x { id","type":"String"}}}}}"#,
         "models.Post.fields.t.name"),
        (#"{"models":{"Post { x }":{"fields":{"id":{"name":"id","type":"ID"}}}}}"#, #"models["Post { x }"]"#),
        (#"{"models":{"Post":{"pluralName":"Posts(x)","fields":{"id":{"name":"id","type":"ID"}}}}}"#, "models.Post.pluralName"),
        (#"{"models":{"Post":{"fields":{"id":{"name":"id","type":"I\nD"}}}}}"#, "models.Post.fields.id.type"),
        (#"{"enums":{"E":{"values":["A","B C"]}},"models":{}}"#, "enums.E.values[1]"),
        (#"{"models":{"Post":{"fields":{"id":{"name":"id","type":"ID"}},"attributes":[{"type":"key","properties":{"name":"by x","fields":["id"]}}]}}}"#,
         "models.Post.attributes[0].properties.name"),
        (#"{"models":{"Post":{"fields":{"id":{"name":"id","type":"ID"}},"attributes":[{"type":"key","properties":{"name":"gsi-P.c","queryField":"q { x }","fields":["id"]}}]}}}"#,
         "models.Post.attributes[0].properties.queryField"),
        (#"{"models":{"Post":{"fields":{"id":{"name":"id","type":"ID"}},"attributes":[{"type":"model","properties":{"queries":{"get":"getPost(id: 1)"}}}]}}}"#,
         "models.Post.attributes[0].properties.queries.get"),
    ])
    func modelIntrospectionNamesMustBeGraphQLNames(text: String, location: String) {
        let error = loadError(text)
        #expect(error?.location == location)
        #expect(error?.message.contains("is not a") == true)
        #expect(error?.description.contains("\n") == false)
    }

    @Test func pulledIntrospectionNamesMustBeGraphQLNames() throws {
        let json = try JSONValue.parse(#"{"__schema":{"queryType":{"name":"Query"},"types":[{"kind":"OBJECT","name":"Query","fields":[{"name":"getPost\u001b[2J","args":[],"type":{"kind":"SCALAR","name":"String"}}]}]}}"#)
        #expect(throws: SchemaError.self) { try APISchema(json: json, source: "https://x/graphql") }
        do {
            _ = try APISchema(json: json, source: "https://x/graphql")
        } catch {
            #expect(error.location == "__schema.types[0].fields[0].name")
            #expect(!error.description.contains("\u{1B}"))
        }
    }

    @Test func deadlinesSaturateInsteadOfTrapping() {
        for seconds in [9_223_372_036, 9_999_999_999, 1e300, .infinity, Double(Int64.max)] {
            #expect(Deadline.after(seconds).millisecondsFromNow > 1_000_000_000)
        }
        #expect(Deadline.after(.nan).millisecondsFromNow <= 0)
        #expect(Deadline.after(-5).millisecondsFromNow <= 0)
        let soon = Deadline.after(2).millisecondsFromNow
        #expect(soon > 1_000 && soon <= 2_000)
    }

    @Test func aHugeConnectionTimeoutIsBounded() throws {
        let message = try RealtimeMessage.parse(#"{"type":"connection_ack","payload":{"connectionTimeoutMs":9200000000000}}"#)
        #expect(message == .connectionAck(connectionTimeoutMs: Defaults.maximumConnectionTimeoutMs))
    }

    @Test func endlessEmptyPagesStopResumably() throws {
        let counter = Counter()
        let transport = FakeTransport { _, _ in
            .success(HTTPResponse(status: 200, text: #"{"data":{"listPosts":{"items":[],"nextToken":"t\#(counter.next())"}}}"#))
        }
        var pager = ListPager(client: try Fixtures.client(transport), connectionPath: ["listPosts"]) { limit, token in
            GraphQLRequest(query: "query { … }", variables: token.map { ["nextToken": .string($0)] } ?? [:],
                           operationType: .query, decodePath: ["listPosts"])
        }
        pager.maxEmptyPagesInARow = 5
        let result = pager.run { _ in }
        #expect(transport.requests.count == 5)
        #expect(result.resume == .token("t4"))
        guard case .failed(.invalidResponse(.endlessEmptyPages(5))) = result.stop else { Issue.record("\(result.stop)"); return }
    }

    @Test func tokenDigestsSpotRepeatsOfLongTokens() {
        var digests = ListPager.TokenDigests()
        let long = String(repeating: "x", count: 100_000)
        let first = digests.insert(long), second = digests.insert(long + "y"), again = digests.insert(long)
        #expect(first && second && !again)
        #expect(digests.count == 2)
    }

    @Test func badResponsesAreNotRetried() {
        #expect(RetryReason.forTransportError(.badResponse("bad gzip")) == nil)
        #expect(RetryReason.forTransportError(.responseTooLarge(limit: 1, received: 2)) == nil)
        #expect(RetryReason.forTransportError(.network("reset")) != nil)
    }

    @Test func aLongRetryWaitIsANotice() {
        #expect(TraceEvent.retry(retry: 1, maxRetries: 3, reason: .status(503), delay: 60).retryNotice
            == "HTTP 503 on attempt 1 of 4; waiting 60 s before retrying")
        #expect(TraceEvent.retry(retry: 1, maxRetries: 3, reason: .status(503), delay: 0.2).retryNotice == nil)
        #expect(TraceEvent.retry(retry: 2, maxRetries: 3, reason: .timeout, delay: 0.2).retryNotice != nil)
    }
}

/// A thread-safe counter for fake servers.
private final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLockLike()
    func next() -> Int { lock.with { value += 1; return value - 1 } }
}

private final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func with<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
