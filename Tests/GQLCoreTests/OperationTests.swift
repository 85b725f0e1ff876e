import Testing
@testable import GQLCore

/// What an operation reported, in order, in a form tests can compare.
private final class EventLog {
    var events: [OperationEvent] = []
    /// How many `.records` pages the sink takes before it says the output is gone (nil: all).
    var acceptsPages: Int?

    func sink(_ event: OperationEvent) -> Bool {
        events.append(event)
        guard case .records = event, let accepts = acceptsPages else { return true }
        acceptsPages = accepts - 1
        return accepts > 0
    }

    /// The ids of the reported records, page by page.
    var pages: [[String]] {
        events.compactMap { event in
            guard case .records(let records) = event else { return nil }
            return records.compactMap { $0["id"]?.stringValue }
        }
    }

    /// One word per event (its case), for checking their order.
    var names: [String] {
        events.map { event in
            switch event {
            case .result: "result"
            case .records: "records"
            case .recordsEnded(let complete): "recordsEnded(\(complete))"
            case .count(let count): "count(\(count))"
            case .envelope: "envelope"
            case .graphQLErrors: "graphQLErrors"
            case .requestFailed: "requestFailed"
            case .invalidResponse: "invalidResponse"
            case .notFound(let described): "notFound(\(described))"
            case .deletedRecordHidden: "deletedRecordHidden"
            case .includedListFailed: "includedListFailed"
            case .interrupted(let delivered): "interrupted(\(delivered))"
            case .countInterrupted: "countInterrupted"
            case .countIncomplete(let counted): "countIncomplete(\(counted))"
            case .resumePoint(let token): "resumePoint(\(token))"
            case .resumePointRefused: "resumePointRefused"
            case .noResumePoint: "noResumePoint"
            case .syncedUntil(let startedAt): "syncedUntil(\(startedAt))"
            case .syncIncomplete: "syncIncomplete"
            case .appliedAfterRetry: "appliedAfterRetry"
            case .recordAlreadyExists(let model): "recordAlreadyExists(\(model))"
            case .ownAttemptMayBeWhy: "ownAttemptMayBeWhy"
            case .writeMayHaveBeenApplied: "writeMayHaveBeenApplied"
            case .writeTargetDeleted, .versionNotReceived, .versionNotRead, .versionConflict, .conditionFalse,
                .conditionFalseOrMissing, .softDeleted, .autoMerged, .recordsLeftPointing, .decodePathNotFound:
                String(String(describing: event).prefix { $0 != "(" })
            }
        }
    }
}

private func variables(_ request: HTTPRequest) -> JSONValue? { (try? JSONValue.parse(request.body))?["variables"] }

/// A server whose first answer is post p1 at `root`, with comment c1 and a token for more, and whose follow-up
/// page of p1's comments holds c2.
private func postWithTwoPagesOfComments(root: String) -> FakeTransport {
    FakeTransport { request, _ in
        if variables(request)?["nextToken"] == nil {
            return Fixtures.ok(#"{"data":{"\#(root)":{"id":"p1","comments":{"items":[{"id":"c1"}],"nextToken":"n1"}}}}"#)
        }
        return Fixtures.ok(#"{"data":{"getPost":{"comments":{"items":[{"id":"c2"}],"nextToken":null}}}}"#)
    }
}

@Suite struct GetOperationTests {
    let context: (FakeTransport) throws -> APIContext = { transport in
        APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 0))
    }

    @Test func followsAnIncludedListToItsEndThroughTheContextsClient() throws {
        let transport = postWithTwoPagesOfComments(root: "getPost")
        let context = try context(transport)
        let operation = try GetOperation("Post", key: .id("p1"), includes: ["comments"], builder: context.builder)
        let log = EventLog()
        #expect(operation.run(in: context, events: log.sink) == .success)
        #expect(log.names == ["result"])
        guard case .result(let record) = log.events.first else { return }
        #expect(record["comments"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["c1", "c2"])
        #expect(record["comments"]?["nextToken"] == .null)
        #expect(transport.requests.count == 2)
        #expect(variables(transport.requests[1])?["nextToken"] == "n1")
    }

    @Test func aNullRecordIsNotFoundAndNamesTheKey() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"data":{"getPost":null}}"#)])
        let context = try context(transport)
        let operation = try GetOperation("Post", key: .id("p9"), builder: context.builder)
        let log = EventLog()
        #expect(operation.run(in: context, events: log.sink) == .notFound)
        #expect(log.names == ["notFound(Post with key 'p9')"])
    }

    @Test func aFailedIncludedPageReportsTheRecordThenTheFailureAsPartial() throws {
        let transport = FakeTransport { request, _ in
            if variables(request)?["nextToken"] == nil {
                return Fixtures.ok(#"{"data":{"getPost":{"id":"p1","comments":{"items":[{"id":"c1"}],"nextToken":"n1"}}}}"#)
            }
            return Fixtures.ok(#"{"data":null,"errors":[{"message":"boom"}]}"#)
        }
        let context = try context(transport)
        let operation = try GetOperation("Post", key: .id("p1"), includes: ["comments"], builder: context.builder)
        let log = EventLog()
        #expect(operation.run(in: context, events: log.sink) == .partial)
        #expect(log.names == ["result", "includedListFailed"])
        guard case .includedListFailed(.errors(let errors)) = log.events.last else {
            Issue.record("expected the page's errors, got \(log.events)")
            return
        }
        #expect(errors.map(\.message) == ["boom"])
    }

    @Test func aRequestThatFailsEndsWithItsKindAndNothingElse() throws {
        let transport = FakeTransport([.failure(.network("refused"))])
        let context = try context(transport)
        let log = EventLog()
        let kind = try GetOperation("Post", key: .id("p1"), builder: context.builder).run(in: context, events: log.sink)
        #expect(kind == .network)
        #expect(log.names == ["requestFailed"])
    }

    @Test func argumentsTheSchemaRefusesAreThrownBeforeAnythingIsSent() {
        #expect(throws: RequestBuildError.self) {
            _ = try GetOperation("Post", key: .id("p1"), includes: ["coments"], builder: RequestBuilder(schema: try TestSchemas.blog()))
        }
    }
}

@Suite struct ListOperationTests {
    /// Pages of posts `p0`…: token `tN` starts at post N; two posts a page.
    private func server(total: Int, failAt failing: String? = nil) -> FakeTransport {
        FakeTransport { request, _ in
            let token = variables(request)?["nextToken"]?.stringValue
            if let token, token == failing { return Fixtures.ok(#"{"data":null,"errors":[{"message":"throttled"}]}"#) }
            let offset = token.flatMap { Int($0.dropFirst()) } ?? 0
            let end = min(total, offset + 2)
            let items = (offset..<end).map { #"{"id":"p\#($0)"}"# }.joined(separator: ",")
            let next = end < total ? "\"t\(end)\"" : "null"
            return Fixtures.ok(#"{"data":{"listPosts":{"items":[\#(items)],"nextToken":\#(next)}}}"#)
        }
    }

    private func context(_ transport: FakeTransport) throws -> APIContext {
        APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 0))
    }

    @Test func reportsEveryPageThenTheEnd() throws {
        let transport = server(total: 5)
        let context = try context(transport)
        let log = EventLog()
        #expect(try ListOperation("Post", builder: context.builder).run(in: context, events: log.sink) == .success)
        #expect(log.pages == [["p0", "p1"], ["p2", "p3"], ["p4"]])
        #expect(log.names.last == "recordsEnded(true)")
    }

    @Test func aFailedPageIsReportedWithWhereToResume() throws {
        let transport = server(total: 5, failAt: "t2")
        let context = try context(transport)
        let log = EventLog()
        #expect(try ListOperation("Post", builder: context.builder).run(in: context, events: log.sink) == .graphQLErrors)
        #expect(log.pages == [["p0", "p1"]])
        #expect(log.names.suffix(3) == ["recordsEnded(false)", "graphQLErrors", "resumePoint(t2)"])
    }

    @Test func aResumedListingStartsWhereTheTokenSays() throws {
        let transport = server(total: 5)
        let context = try context(transport)
        var operation = try ListOperation("Post", builder: context.builder)
        try operation.resume(at: "t2")
        let log = EventLog()
        #expect(operation.run(in: context, events: log.sink) == .success)
        #expect(log.pages == [["p2", "p3"], ["p4"]])
    }

    @Test func aRefusedResumePointIsNotHandedBack() throws {
        let transport = server(total: 5, failAt: "t2")
        let context = try context(transport)
        var operation = try ListOperation("Post", builder: context.builder)
        try operation.resume(at: "t2")
        let log = EventLog()
        #expect(operation.run(in: context, events: log.sink) == .graphQLErrors)
        #expect(log.names == ["recordsEnded(false)", "graphQLErrors", "resumePointRefused"])
    }

    @Test func aLimitStopsInsideAPageAndResumesThere() throws {
        let transport = server(total: 5)
        let context = try context(transport)
        var operation = try ListOperation("Post", builder: context.builder)
        operation.limit = 3
        let log = EventLog()
        #expect(operation.run(in: context, events: log.sink) == .success)
        #expect(log.pages.flatMap { $0 } == ["p0", "p1", "p2"])
        guard case .resumePoint(let token) = log.events.last else {
            Issue.record("expected a resume point, got \(log.names)")
            return
        }
        var resumed = try ListOperation("Post", builder: context.builder)
        try resumed.resume(at: token)
        let rest = EventLog()
        #expect(resumed.run(in: context, events: rest.sink) == .success)
        #expect(rest.pages.flatMap { $0 } == ["p3", "p4"])
    }

    @Test func aSinkThatCannotTakeRecordsStopsTheListing() throws {
        let transport = server(total: 9)
        let context = try context(transport)
        let log = EventLog()
        log.acceptsPages = 1
        _ = try ListOperation("Post", builder: context.builder).run(in: context, events: log.sink)
        #expect(transport.requests.count == 2)
        #expect(!log.names.contains("graphQLErrors"))
        #expect(log.names.contains("resumePoint(t2)"))
    }

    @Test func aCountReportsOnlyAFullCount() throws {
        let context = try context(server(total: 5))
        let log = EventLog()
        #expect(try ListOperation("Post", counts: true, builder: context.builder).run(in: context, events: log.sink) == .success)
        #expect(log.names == ["count(5)"])

        let failing = try self.context(server(total: 5, failAt: "t4"))
        let stopped = EventLog()
        #expect(try ListOperation("Post", counts: true, builder: failing.builder).run(in: failing, events: stopped.sink) == .graphQLErrors)
        #expect(stopped.names == ["countIncomplete(4)", "graphQLErrors", "resumePoint(t4)"])
    }

    @Test func aCountSelectsOnlyTheKey() throws {
        let operation = try ListOperation("Post", fields: .paths(["title"]), counts: true, builder: RequestBuilder(schema: try TestSchemas.blog()))
        #expect(operation.fields == .keysOnly)
        #expect(!operation.firstPage.query.contains("title"))
    }
}

@Suite struct CustomOperationCallTests {
    private func context(_ transport: FakeTransport, retries: Int = 0) throws -> APIContext {
        APIContext(schema: try TestSchemas.customOperations(), client: try Fixtures.client(transport, retries: retries))
    }

    @Test func aModelResultHasItsIncludedListsFollowed() throws {
        let context = try context(postWithTwoPagesOfComments(root: "featuredPost"))
        let call = try CustomOperationCall(
            "featuredPost", kind: .query, arguments: RecordValues(assignments: ["id=p1"]), includes: ["comments"],
            builder: context.builder)
        let log = EventLog()
        #expect(call.run(in: context, events: log.sink) == .success)
        guard case .result(let post) = log.events.first, log.events.count == 1 else {
            Issue.record("expected one result, got \(log.names)")
            return
        }
        #expect(post["comments"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["c1", "c2"])
    }

    @Test func aMutationIsSentOnceEvenWhenRetriesAreAllowed() throws {
        let transport = FakeTransport([.failure(.timeout(seconds: 30))])
        let context = try context(transport, retries: 3)
        let call = try CustomOperationCall(
            "likePost", kind: .mutation, arguments: RecordValues(assignments: ["postId=p1"]), builder: context.builder)
        let log = EventLog()
        #expect(call.run(in: context, events: log.sink) == .network)
        #expect(transport.requests.count == 1)
        #expect(log.names == ["requestFailed"])

        let query = FakeTransport([.failure(.timeout(seconds: 30)), Fixtures.ok(#"{"data":{"shout":"HI"}}"#)])
        let queryContext = try self.context(query, retries: 3)
        let shout = try CustomOperationCall("shout", kind: .query, arguments: RecordValues(assignments: ["text=hi"]), builder: queryContext.builder)
        let answered = EventLog()
        #expect(shout.run(in: queryContext, events: answered.sink) == .success)
        #expect(query.requests.count == 2)
    }
}

@Suite struct SyncOperationTests {
    /// A pulled schema whose `Note` has `_version`: conflict detection, so a `syncNotes` query.
    private static let notes = """
        {"version": 1, "models": {"Note": {"name": "Note", "pluralName": "Notes", "syncable": true, "attributes": [],
         "fields": {"id": {"name": "id", "type": "ID", "isRequired": true, "isArray": false},
                    "_version": {"name": "_version", "type": "Int", "isRequired": true, "isArray": false},
                    "_deleted": {"name": "_deleted", "type": "Boolean", "isRequired": false, "isArray": false}}}}}
        """

    private func context(_ transport: FakeTransport) throws -> APIContext {
        let schema = try #require(try SchemaLoader.load(bytes: Array(Self.notes.utf8), path: "pulled.json").schema)
        return APIContext(schema: schema, client: try Fixtures.client(transport, retries: 0))
    }

    /// Page `t1` answers `second`; the first page carries startedAt 1000 (the later one 2000, which must not win).
    private func server(second: FakeTransport.Reply) -> FakeTransport {
        FakeTransport { request, _ in
            guard variables(request)?["nextToken"] != nil else {
                return Fixtures.ok(#"{"data":{"syncNotes":{"items":[{"id":"n1","_deleted":true}],"nextToken":"t1","startedAt":1000}}}"#)
            }
            return second
        }
    }

    @Test func aFullSyncReportsEveryRecordThenTheFirstPagesStartedAt() throws {
        let context = try context(server(second: Fixtures.ok(#"{"data":{"syncNotes":{"items":[{"id":"n2"}],"nextToken":null,"startedAt":2000}}}"#)))
        let operation = try SyncOperation("Note", since: 500, builder: context.builder)
        #expect(operation.firstPage.variables["lastSync"] == .number(JSONNumber(500)))
        let log = EventLog()
        #expect(operation.run(in: context, events: log.sink) == .success)
        #expect(log.pages == [["n1"], ["n2"]])  // soft-deleted records too: a sync reports deletions
        #expect(log.names.suffix(2) == ["recordsEnded(true)", "syncedUntil(1000)"])
    }

    @Test func aSyncThatStopsSaysSoAndGivesNoStartedAt() throws {
        let context = try context(server(second: Fixtures.ok(#"{"data":null,"errors":[{"message":"throttled"}]}"#)))
        let log = EventLog()
        #expect(try SyncOperation("Note", since: nil, builder: context.builder).run(in: context, events: log.sink) == .graphQLErrors)
        #expect(log.names == ["records", "recordsEnded(true)", "graphQLErrors", "syncIncomplete"])
    }
}

/// A condition failure as AppSync reports a DynamoDB refusal.
private let conditionFailed = #"{"data":{"createPost":null},"errors":[{"message":"The conditional request failed","errorType":"DynamoDB:ConditionalCheckFailedException","path":["createPost"]}]}"#

@Suite struct CreateOperationTests {
    let context: (FakeTransport, Int) throws -> APIContext = { transport, retries in
        APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: retries))
    }

    func create(_ context: APIContext) throws -> CreateOperation {
        try CreateOperation("Post", values: RecordValues(assignments: ["id=p1", "title=Hello"], input: nil), builder: context.builder)
    }

    @Test func reportsTheCreatedRecord() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"data":{"createPost":{"id":"p1","title":"Hello"}}}"#)])
        let context = try context(transport, 0)
        let log = EventLog()
        #expect(try create(context).run(in: context, events: log.sink) == .success)
        #expect(log.names == ["result"])
        #expect(transport.requests.count == 1)
    }

    @Test func aRefusedConditionSaysTheKeyIsTaken() throws {
        let transport = FakeTransport([Fixtures.ok(conditionFailed)])
        let context = try context(transport, 0)
        let log = EventLog()
        #expect(try create(context).run(in: context, events: log.sink) == .graphQLErrors)
        #expect(log.names == ["graphQLErrors", "recordAlreadyExists(Post)"])
        #expect(transport.requests.count == 1)  // not read back: gqlc sent it once
    }

    /// A create whose first attempt times out and whose retry is refused because the key exists; the read-back
    /// finds `title`. Returns how it ended and what it reported.
    private func retriedCreate(readBack title: String) throws -> (ResultKind, EventLog) {
        let transport = FakeTransport([
            .failure(.timeout(seconds: 30)), Fixtures.ok(conditionFailed),
            Fixtures.ok(#"{"data":{"getPost":{"id":"p1","title":"\#(title)"}}}"#),
        ])
        let context = try context(transport, 1)
        var operation = try create(context)
        operation.mayRetry = true
        let log = EventLog()
        return (operation.run(in: context, events: log.sink), log)
    }

    @Test func aLostAnswerRefusedOnRetryIsReadBackAsApplied() throws {
        let (kind, log) = try retriedCreate(readBack: "Hello")
        #expect(kind == .success)
        #expect(log.names == ["appliedAfterRetry", "result"])
        guard case .result(let record)? = log.events.last else { Issue.record("no result"); return }
        #expect(record["title"]?.stringValue == "Hello")
    }

    @Test func aRetriedCreateRefusedForOtherValuesMayBeItsOwnAttempt() throws {
        let (kind, log) = try retriedCreate(readBack: "Other")
        #expect(kind == .graphQLErrors)
        #expect(log.names == ["graphQLErrors", "recordAlreadyExists(Post)", "ownAttemptMayBeWhy"])
    }

    @Test func anUnansweredCreateMayHaveBeenAppliedWithTheKeySent() throws {
        let transport = FakeTransport([.failure(.timeout(seconds: 30))])
        let context = try context(transport, 0)
        let log = EventLog()
        #expect(try create(context).run(in: context, events: log.sink) == .network)
        #expect(log.names == ["requestFailed", "writeMayHaveBeenApplied"])
        guard case .writeMayHaveBeenApplied(let write)? = log.events.last else { Issue.record("no uncertain write"); return }
        #expect(write.key == [KeyValueText(field: "id", value: "p1")])
        #expect(write.cause == .timeout && !write.retried)
    }
}
