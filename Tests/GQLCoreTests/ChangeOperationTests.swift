import Foundation
import Testing
@testable import GQLCore

/// What an operation reported, in order: each event's case name, for comparing sequences.
private final class ChangeLog {
    var events: [OperationEvent] = []

    func sink(_ event: OperationEvent) -> Bool {
        events.append(event)
        return true
    }

    var names: [String] {
        events.map { event in
            let text = String(describing: event)
            return String(text.prefix { $0 != "(" })
        }
    }
}

/// The GraphQL document a request sent.
private func document(_ request: HTTPRequest) -> String { (try? JSONValue.parse(request.body))?["query"]?.stringValue ?? "" }
private func input(_ request: HTTPRequest) -> JSONValue? { (try? JSONValue.parse(request.body))?["variables"]?["input"] }

/// A condition failure as AppSync reports a DynamoDB refusal of `root`.
private func conditionFailed(_ root: String) -> FakeTransport.Reply {
    Fixtures.ok(#"{"data":{"\#(root)":null},"errors":[{"message":"The conditional request failed","errorType":"DynamoDB:ConditionalCheckFailedException","path":["\#(root)"]}]}"#)
}

/// A pulled schema whose `Note` has `_version`: conflict detection.
private func notes() throws -> ModelSchema {
    let text = """
        {"version": 1, "models": {"Note": {"name": "Note", "pluralName": "Notes", "syncable": true, "attributes": [],
         "fields": {"id": {"name": "id", "type": "ID", "isRequired": true, "isArray": false},
                    "title": {"name": "title", "type": "String", "isRequired": false, "isArray": false},
                    "_version": {"name": "_version", "type": "Int", "isRequired": true, "isArray": false},
                    "_deleted": {"name": "_deleted", "type": "Boolean", "isRequired": false, "isArray": false}}}}}
        """
    return try #require(try SchemaLoader.load(bytes: Array(text.utf8), path: "pulled.json").schema)
}

@Suite struct UpdateOperationTests {
    @Test func readsTheVersionWithOneGetThenSendsIt() throws {
        let transport = FakeTransport { request, _ in
            document(request).hasPrefix("query")
                ? Fixtures.ok(#"{"data":{"getNote":{"id":"n1","_version":3,"_deleted":null}}}"#)
                : Fixtures.ok(#"{"data":{"updateNote":{"id":"n1","title":"new","_version":4}}}"#)
        }
        let context = APIContext(schema: try notes(), client: try Fixtures.client(transport, retries: 0))
        let operation = try UpdateOperation(
            "Note", key: .id("n1"), values: RecordValues(assignments: ["title=new"]), builder: context.builder)
        #expect(operation.readsVersion)
        #expect(operation.request.variables["input"]?["_version"] == nil)  // what a dry run shows: not read yet
        let log = ChangeLog()
        #expect(operation.run(in: context, events: log.sink) == .success)
        #expect(log.names == ["result"])
        #expect(transport.requests.count == 2)
        #expect(document(transport.requests[0]).contains("getNote"))
        #expect(input(transport.requests[1])?["_version"] == .number(JSONNumber(3)))
    }

    @Test func anExpectedVersionIsSentWithoutReading() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"data":{"updateNote":{"id":"n1","_version":8}}}"#)])
        let context = APIContext(schema: try notes(), client: try Fixtures.client(transport, retries: 0))
        let operation = try UpdateOperation(
            "Note", key: .id("n1"), values: RecordValues(assignments: ["title=new"]), expectedVersion: 5, builder: context.builder)
        #expect(!operation.readsVersion)
        let log = ChangeLog()
        #expect(operation.run(in: context, events: log.sink) == .success)
        // 8 > 5 + 1: the server merged the update into someone else's change.
        #expect(log.names == ["autoMerged", "result"])
        #expect(transport.requests.count == 1)
        #expect(input(transport.requests[0])?["_version"] == .number(JSONNumber(5)))
    }

    @Test func aSoftDeletedRecordIsNotWritten() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"data":{"getNote":{"id":"n1","_version":2,"_deleted":true}}}"#)])
        let context = APIContext(schema: try notes(), client: try Fixtures.client(transport, retries: 0))
        let operation = try UpdateOperation("Note", key: .id("n1"), values: RecordValues(assignments: ["title=x"]), builder: context.builder)
        let log = ChangeLog()
        #expect(operation.run(in: context, events: log.sink) == .notFound)
        #expect(log.names == ["writeTargetDeleted"])
        #expect(transport.requests.count == 1)
    }
}

@Suite struct DeleteOperationTests {
    /// A blog server: `deletePost` answers from `deleteReplies` in turn, `getPost` with `readBack`, and every listing
    /// of comments with one comment.
    private func server(delete deleteReplies: [FakeTransport.Reply], readBack: FakeTransport.Reply) -> FakeTransport {
        let deletes = Counter()
        return FakeTransport { request, _ in
            let text = document(request)
            if text.contains("deletePost") { return deleteReplies[min(deletes.next(), deleteReplies.count - 1)] }
            if text.contains("listComments") {
                return Fixtures.ok(#"{"data":{"listComments":{"items":[{"id":"c1"}],"nextToken":null}}}"#)
            }
            return readBack
        }
    }

    /// A conditional delete of post p1 (safe to send again) over `transport`, with one retry.
    private func retriedDelete(_ transport: FakeTransport) throws -> (ResultKind, ChangeLog) {
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 1))
        var operation = try DeleteOperation("Post", key: .id("p1"), condition: FilterInput(where: ["title=Hello"]), builder: context.builder)
        operation.retriesMutations = true
        let log = ChangeLog()
        return (operation.run(in: context, events: log.sink), log)
    }

    @Test func aLostAnswerRefusedOnRetryIsReadBackAsApplied() throws {
        let transport = server(
            delete: [.failure(.timeout(seconds: 30)), conditionFailed("deletePost")],
            readBack: Fixtures.ok(#"{"data":{"getPost":null}}"#))
        let (kind, log) = try retriedDelete(transport)
        #expect(kind == .success)
        #expect(log.names == ["appliedAfterRetry", "result", "recordsLeftPointing"])
        guard case .result(let key) = log.events[1] else { Issue.record("no result"); return }
        #expect(key == .object(["id": "p1"]))  // the record is gone: its key stands for it
    }

    @Test func aRetriedDeleteWhoseRecordCannotBeReadMayBeItsOwnAttempt() throws {
        let transport = server(
            delete: [.failure(.timeout(seconds: 30)), conditionFailed("deletePost")], readBack: Fixtures.status(500))
        let (kind, log) = try retriedDelete(transport)
        #expect(kind == .graphQLErrors)
        #expect(log.names == ["graphQLErrors", "conditionFalse", "ownAttemptMayBeWhy"])
    }

    @Test func theOrphanCheckGoesThroughTheContextsClient() throws {
        let transport = server(delete: [Fixtures.ok(#"{"data":{"deletePost":{"id":"p1"}}}"#)], readBack: Fixtures.status(500))
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 0))
        let log = ChangeLog()
        #expect(try DeleteOperation("Post", key: .id("p1"), builder: context.builder).run(in: context, events: log.sink) == .success)
        #expect(log.names == ["result", "recordsLeftPointing"])
        guard case .recordsLeftPointing(let model, let association, let related, let key) = log.events[1] else {
            Issue.record("expected the records left pointing, got \(log.events[1])")
            return
        }
        #expect((model, association, related, key) == ("Post", "comments", "Comment", ["id": "p1"]))
        #expect(transport.requests.map { document($0).contains("listComments") } == [false, true])
    }

    @Test func theOrphanCheckIsSignedByTheContextsOneClient() throws {
        let transport = server(delete: [Fixtures.ok(#"{"data":{"deletePost":{"id":"p1"}}}"#)], readBack: Fixtures.status(500))
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.signingClient(transport))
        #expect(try DeleteOperation("Post", key: .id("p1"), builder: context.builder).run(in: context, events: { _ in true }) == .success)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy(Fixtures.isSigned))
    }
}

@Suite struct RawOperationTests {
    private let text = "query Title($id: ID!) { getPost(id: $id) { title } }"

    @Test func reportsTheValueAtTheDecodePath() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"data":{"getPost":{"title":"Hello"}}}"#)])
        let context = APIContext(schema: ModelSchema(), client: try Fixtures.client(transport, retries: 0))
        let operation = try RawOperation(document: text, variables: ["id": "p1", "extra": "x"], decodePath: ["getPost", "title"])
        #expect(operation.undeclaredVariables.count == 1)
        let log = ChangeLog()
        #expect(operation.run(in: context, events: log.sink) == .success)
        guard case .result(let value)? = log.events.first, log.events.count == 1 else { Issue.record("\(log.names)"); return }
        #expect(value == "Hello")
        #expect((try JSONValue.parse(transport.requests[0].body))["variables"] == .object(["id": "p1", "extra": "x"]))
    }

    @Test func dataWithoutTheGivenPathIsThePathsProblem() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"data":{"getPost":null}}"#)])
        let context = APIContext(schema: ModelSchema(), client: try Fixtures.client(transport, retries: 0))
        let operation = try RawOperation(document: text, variables: ["id": "p1"], decodePath: ["getPost", "title"])
        let log = ChangeLog()
        #expect(operation.run(in: context, events: log.sink) == .graphQLErrors)
        #expect(log.names == ["decodePathNotFound"])
        guard case .decodePathNotFound(let path, _)? = log.events.first else { return }
        #expect(path == ["getPost", "title"])
    }

    @Test func aMutationIsNotSentAgainEvenWhenMutationsMayBeRetried() throws {
        let transport = FakeTransport([.failure(.timeout(seconds: 30)), Fixtures.ok(#"{"data":{"likePost":true}}"#)])
        let context = APIContext(schema: ModelSchema(), client: try Fixtures.client(transport, retries: 3))
        var operation = try RawOperation(document: "mutation { likePost }", variables: [:])
        operation.retriesMutations = true
        let log = ChangeLog()
        #expect(operation.run(in: context, events: log.sink) == .network)
        #expect(log.names == ["requestFailed"])
        #expect(transport.requests.count == 1)
    }
}

/// A thread-safe count, for a fake server's replies in turn.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
