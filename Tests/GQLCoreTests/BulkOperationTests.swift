import Foundation
import Testing
@testable import GQLCore

/// A request's parsed body: its query text and variables.
private struct Sent {
    let query: String
    let variables: JSONValue?

    init(_ request: HTTPRequest) {
        let body = try? JSONValue.parse(request.body)
        query = body?["query"]?.stringValue ?? ""
        variables = body?["variables"]
    }

    /// The mutation or query field it calls: `createComment`, `listComments`.
    var field: String {
        for name in ["createComment", "updateComment", "deleteComment", "deletePost", "getComment", "getPost", "listComments"]
        where query.contains(name + "(") { return name }
        return ""
    }

    var input: JSONValue { variables?["input"] ?? .null }
    /// The `postId` a listing of comments filters on.
    var filteredPost: String? { variables?["filter"]?["postId"]?["eq"]?.stringValue }
}

private func answer(_ field: String, _ value: JSONValue) -> FakeTransport.Reply {
    Fixtures.ok(JSONValue.object(["data": .object([field: value])]).serialized(.compact))
}

private func refusal(_ field: String, type: String, message: String) -> FakeTransport.Reply {
    Fixtures.ok(#"{"data":{"\#(field)":null},"errors":[{"message":"\#(message)","errorType":"\#(type)"}]}"#)
}

private let conditionFailed = "DynamoDB:ConditionalCheckFailedException"

/// What a bulk write reported, from any thread.
private final class BulkLog: Sendable {
    private let recorder = EventRecorder<BulkWriteEvent>()

    var events: [BulkWriteEvent] { recorder.events }

    var sink: BulkWriteEventSink {
        { event in
            self.recorder.sink(event)
            return true
        }
    }

    var items: [(result: BulkItemResult, firstTime: Bool)] {
        events.compactMap { if case .item(let result, let first) = $0 { (result, first) } else { nil } }
    }

    var outcomes: [BulkItemOutcome] { items.map(\.result.outcome) }
}

/// Items of an NDJSON text, one per line, as `--input` reads them.
private func items(_ lines: [String]) -> () throws(BulkInputError) -> BulkInputItem? {
    var stream = BulkInputStream(bytes: Array(lines.joined(separator: "\n").utf8), name: "in.ndjson")
    return { () throws(BulkInputError) in try stream.next() }
}

@Suite struct BulkWriteOperationTests {
    func context(_ transport: FakeTransport, retries: Int = 3) throws -> APIContext {
        APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: retries))
    }

    @Test func aRefusedRecordFailsAloneItsRejectLineCarriesItsKeyAndARepeatedProblemIsSaidOnce() throws {
        let transport = FakeTransport { request, _ in
            let sent = Sent(request)
            if sent.input["content"]?.stringValue == "too long" {
                return refusal("createComment", type: "DynamoDB:ValidationException", message: "Item size has exceeded the maximum")
            }
            return answer("createComment", sent.input)
        }
        let context = try context(transport)
        let operation = BulkWriteOperation(create: "Comment", builder: context.builder)
        let log = BulkLog()
        let kind = operation.run(in: context, next: items([
            #"{"id":"c1","content":"a"}"#, #"{"content":"too long"}"#, #"{"id":"c3","content":"c"}"#,
            #"{"id":"c4","content":"d","nope":1}"#, #"{"id":"c5","content":"e","nope":1}"#,
        ]), events: log.sink)

        #expect(kind == .partial)
        let outcomes = log.outcomes
        try #require(outcomes.count == 5)
        let done = outcomes.map { outcome -> String? in if case .done(let record) = outcome { record["id"]?.stringValue } else { nil } }
        #expect(done == ["c1", nil, "c3", nil, nil])
        guard case .failed(.errors(let errors)) = outcomes[1] else { Issue.record("\(outcomes[1])"); return }
        #expect(errors.map(\.message) == ["Item size has exceeded the maximum"])
        // The create was sent with a generated id: its rejected line carries it, so a re-run cannot create it twice.
        let failed = log.items[1].result
        let generated = try #require(failed.key?["id"]?.stringValue)
        let rejected = try JSONValue.parse(failed.rejectLine(.create))
        #expect(rejected == ["content": "too long", "id": .string(generated)])
        // Two lines with the same mistake: the first said as it happens, the second summed at the end; neither is sent.
        #expect(log.items[3].firstTime && !log.items[4].firstTime)
        let repeated = log.events.compactMap { if case .repeatedFailure(let repeated) = $0 { repeated } else { nil } }
        #expect(repeated.map(\.count) == [1] && repeated.first?.lines == [5...5])
        #expect(transport.requests.count == 3)
        let ended = log.events.compactMap { if case .jobEnded(let counts, let stop) = $0 { (counts, stop) } else { nil } }
        #expect(ended.first?.0.done == 2 && ended.first?.0.failed == 3 && ended.first?.1 == .endOfInput)
    }

    @Test func aCreateWhoseAnswerWasLostAndIsRefusedOnItsRetryIsDoneWhenTheRecordHoldsWhatWasSent() throws {
        let transport = FakeTransport { request, index in
            let sent = Sent(request)
            switch (index, sent.field) {
            case (0, _): return .failure(.network("connection reset by peer"))
            case (_, "createComment"): return refusal("createComment", type: conditionFailed, message: "The conditional request failed")
            case (_, "getComment"): return answer("getComment", ["id": "c1", "content": "a"])
            default: return .failure(.network("unexpected \(sent.field)"))
            }
        }
        let context = try context(transport)
        let log = BulkLog()
        let kind = BulkWriteOperation(create: "Comment", builder: context.builder)
            .run(in: context, next: items([#"{"id":"c1","content":"a"}"#]), events: log.sink)
        #expect(kind == .success)
        #expect(log.outcomes == [.done(["id": "c1", "content": "a"])])
        #expect(transport.requests.map { Sent($0).field } == ["createComment", "createComment", "getComment"])
    }

    @Test func anUpdateWhoseAnswerWasLostAndCannotBeReadBackIsUncertainNotAMissingRecord() throws {
        let transport = FakeTransport { request, index in
            switch (index, Sent(request).field) {
            case (0, _): return .failure(.timeout(seconds: 30))
            case (_, "updateComment"): return refusal("updateComment", type: conditionFailed, message: "The conditional request failed")
            default: return .failure(.network("connection refused"))  // the read-back
            }
        }
        let context = try context(transport, retries: 1)
        let log = BulkLog()
        let kind = BulkWriteOperation(update: "Comment", builder: context.builder)
            .run(in: context, next: items([#"{"id":"c1","content":"b"}"#]), events: log.sink)
        #expect(kind == .graphQLErrors)
        #expect(log.outcomes == [.failed(.refusedAfterRetry(["id": "c1"]))])
    }

    @Test func theOrphanCheckAfterADeleteGoesThroughTheContextsClientNotAWorkers() throws {
        let transport = FakeTransport { request, _ in
            let sent = Sent(request)
            let items: [JSONValue] = sent.filteredPost == "p1" ? [["id": "c1"]] : []
            return answer("listComments", ["items": .array(items), "nextToken": .null])
        }
        let workers = FakeTransport { request, _ in answer("deletePost", Sent(request).input) }
        let context = try context(transport)
        var operation = BulkWriteOperation(delete: "Post", builder: context.builder)
        operation.workerClient = { client in
            var own = client
            own.transport = workers
            return own
        }
        let log = BulkLog()
        let kind = operation.run(in: context, next: items([#"{"id":"p1"}"#, #""p2""#]), events: log.sink)
        #expect(kind == .success)
        #expect(workers.requests.map { Sent($0).field } == ["deletePost", "deletePost"])
        #expect(transport.requests.map { Sent($0).filteredPost } == ["p1", "p2"])
        let orphans = log.events.compactMap { if case .orphansLeft(let orphans) = $0 { orphans } else { nil } }
        #expect(orphans == [BulkOrphans(association: "comments", model: "Comment", records: 1, deleted: 2)])
    }

    @Test func aBulkDeleteSignsItsDeletesAndOrphanListingsWithTheContextsOneClient() throws {
        let transport = FakeTransport { request, _ in
            let sent = Sent(request)
            if sent.field == "deletePost" { return answer("deletePost", sent.input) }
            return answer("listComments", ["items": [], "nextToken": .null])
        }
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.signingClient(transport))
        var operation = BulkWriteOperation(delete: "Post", builder: context.builder)
        operation.concurrency = 4
        let kind = operation.run(in: context, next: items([#"{"id":"p1"}"#, #"{"id":"p2"}"#, #"{"id":"p3"}"#]), events: BulkLog().sink)
        #expect(kind == .success)
        // (That the credentials are resolved once per process is counted end to end: test_credentials_once.py.)
        // Three deletes and three orphan listings, each signed with the one set of credentials.
        #expect(transport.requests.count == 6)
        #expect(transport.requests.allSatisfy(Fixtures.isSigned))
    }

    @Test func aDryRunBuildsEachRequestAndSendsNothing() throws {
        let transport = FakeTransport([Fixtures.ok()])
        let context = try context(transport)
        let log = BulkLog()
        let kind = BulkWriteOperation(delete: "Comment", builder: context.builder)
            .dryRun(next: items([#"{"id":"c1"}"#, "[1]", #""c2""#]), events: log.sink)
        #expect(kind == .partial)
        let sent = log.events.compactMap { if case .wouldSend(let request) = $0 { request.variables["input"] } else { nil } }
        #expect(sent == [["id": "c1"], ["id": "c2"]])
        #expect(transport.requests.isEmpty)
    }

    /// The blog's models with conflict detection (automerge), as a Gen 1 project with it turned on has them.
    private func versionedContext(_ transport: FakeTransport) throws -> APIContext {
        let schema = ConflictDetectionSetting.automerge.apply(to: try TestSchemas.blog(), source: "test")
        return APIContext(schema: schema, client: try Fixtures.client(transport))
    }

    @Test func aBulkUpdateOfAModelWithConflictDetectionReadsEachVersionFirstAndSendsEachRecordWithItsOwn() throws {
        let transport = FakeTransport { request, _ in
            let sent = Sent(request)
            if sent.field == "updateComment" { return answer("updateComment", sent.input) }
            let listed: [JSONValue] = [["id": "c1", "_version": 3, "_deleted": false], ["id": "c2", "_version": 1, "_deleted": true]]
            return answer("listComments", ["items": .array(listed), "nextToken": .null])
        }
        let context = try versionedContext(transport)
        let log = BulkLog()
        let kind = BulkWriteOperation(update: "Comment", builder: context.builder).run(in: context, next: items([
            #"{"id":"c1","content":"b"}"#, #"{"id":"c2","content":"c"}"#, #"{"id":"c9","content":"d"}"#,
        ]), events: log.sink)
        #expect(kind == .partial)
        // One listing of keys and versions, then only the update of the record it found alive, at its version.
        #expect(transport.requests.map { Sent($0).field } == ["listComments", "updateComment"])
        #expect(Sent(transport.requests[1]).input == ["content": "b", "id": "c1", "_version": 3])
        #expect(log.outcomes == [
            .done(["content": "b", "id": "c1", "_version": 3]),
            .failed(.invalid("the Comment record is soft-deleted (_deleted: true, _version 1)")),
            .failed(.invalid("no Comment record has this key (none was listed with its _version)")),
        ])
    }

    @Test func versionsThatCannotBeReadStopTheJobBeforeAnythingIsSentAndADryRunSaysItWouldReadThem() throws {
        let transport = FakeTransport([
            Fixtures.ok(#"{"data":{"listComments":null},"errors":[{"message":"Not Authorized","errorType":"Unauthorized"}]}"#),
        ])
        let context = try versionedContext(transport)
        let log = BulkLog()
        let operation = BulkWriteOperation(delete: "Comment", builder: context.builder)
        #expect(operation.run(in: context, next: items([#"{"id":"c1"}"#]), events: log.sink) == .graphQLErrors)
        #expect(transport.requests.map { Sent($0).field } == ["listComments"])
        guard log.events.count == 1, case .versionsFailed(.errors(let errors)) = log.events[0] else {
            Issue.record("\(log.events)")
            return
        }
        #expect(errors.map(\.message) == ["Not Authorized"])
        let dryRun = BulkLog()
        #expect(operation.dryRun(next: items([#"{"id":"c1"}"#]), events: dryRun.sink) == .success)
        guard case .versionsNotRead = dryRun.events.first else {
            Issue.record("\(dryRun.events)")
            return
        }
        #expect(transport.requests.count == 1)
        // A bulk create reads nothing first.
        #expect(!BulkWriteOperation(create: "Comment", builder: context.builder).readsVersions)
    }
}

@Suite struct CascadeDeleteOperationTests {
    /// Post p1 with comments c1 and c2; `gone` deletes answer null (someone else deleted them).
    func server(gone: Set<String> = []) -> FakeTransport {
        FakeTransport { request, _ in
            let sent = Sent(request)
            switch sent.field {
            case "getPost": return answer("getPost", ["id": "p1"])
            case "listComments":
                let items: [JSONValue] = sent.filteredPost == "p1" ? [["id": "c1"], ["id": "c2"]] : []
                return answer("listComments", ["items": .array(items), "nextToken": .null])
            case "deleteComment", "deletePost":
                let id = sent.input["id"]?.stringValue ?? ""
                return answer(sent.field, gone.contains(id) ? .null : sent.input)
            default: return .failure(.network("unexpected \(sent.field)"))
            }
        }
    }

    /// The mutations sent, as `deleteComment c1`.
    func deletes(_ transport: FakeTransport) -> [String] {
        transport.requests.map(Sent.init).filter { $0.field.hasPrefix("delete") }
            .map { "\($0.field) \($0.input["id"]?.stringValue ?? "")" }
    }

    @Test func plansThenAsksOnceThenDeletesTheChildrenBeforeTheRecord() throws {
        let transport = server()
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport))
        var asked: [Int] = []
        var events: [CascadeDeleteEvent] = []
        let kind = CascadeDeleteOperation("Post", key: ["id": "p1"]).run(
            in: context, confirm: { plan in
                asked.append(plan.count)
                return .yes
            }, events: { events.append($0) })
        #expect(kind == .success)
        #expect(asked == [3])
        #expect(deletes(transport) == ["deleteComment c1", "deleteComment c2", "deletePost p1"])
        guard case .planned(let plan)? = events.first else { Issue.record("\(events)"); return }
        #expect(plan.children.map(\.key) == [["id": "c1"], ["id": "c2"]] && plan.children.allSatisfy { $0.field == "comments" })
        #expect(plan.outline == ["Post id=p1", "  comments: 2 Comment"])
        let counts = events.compactMap { if case .deleted(let count, let byModel) = $0 { "\(count): " + byModel.map { "\($0.count) \($0.model)" }.joined(separator: ", ") } else { nil } }
        #expect(counts == ["3: 2 Comment, 1 Post"])
        let results = events.compactMap { if case .result(let record) = $0 { record["id"]?.stringValue } else { nil } }
        #expect(results == ["p1"])
    }

    @Test func aCascadeStartsFromTheRecordItsDeleteWouldDeleteByItsKeyFieldsAlone() throws {
        let builder = RequestBuilder(schema: try TestSchemas.blog())
        let delete = try DeleteOperation("Post", key: .values(["id": "p1"]), condition: FilterInput(where: ["title=T"]), builder: builder)
        let cascade = CascadeDeleteOperation(from: delete, fields: .paths(["id"]))
        #expect(cascade.model == "Post" && cascade.key == ["id": "p1"] && cascade.fields == .paths(["id"]))
        #expect(CascadeDeleteOperation(from: try DeleteOperation("Comment", key: .id("c1"), builder: builder)).key == ["id": "c1"])
    }

    @Test func anAnswerOtherThanYesDeletesNothing() throws {
        for (answer, kind) in [(ConfirmationAnswer.no, ResultKind.graphQLErrors), (.cannotAsk, .invalidInput), (.interrupted, .cancelled)] {
            let transport = server()
            let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport))
            #expect(CascadeDeleteOperation("Post", key: ["id": "p1"]).run(in: context, confirm: { _ in answer }, events: { _ in }) == kind)
            #expect(deletes(transport).isEmpty)
        }
    }

    @Test func aPlannedRecordGoneMeanwhileStopsTheCascadeBeforeItsParent() throws {
        let transport = server(gone: ["c2"])
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport))
        var failures: [(CascadeDelete.Failure, Int)] = []
        let kind = CascadeDeleteOperation("Post", key: ["id": "p1"]).run(in: context, confirm: { _ in .yes }) { event in
            if case .failed(let failure, let deleted) = event { failures.append((failure, deleted)) }
        }
        #expect(kind == .graphQLErrors)
        #expect(deletes(transport) == ["deleteComment c1", "deleteComment c2"])
        #expect(failures.map(\.0) == [.gone(model: "Comment", key: ["id": "c2"])] && failures.map(\.1) == [1])
    }
}
