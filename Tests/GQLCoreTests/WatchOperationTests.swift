import Foundation
import Testing
@testable import GQLCore

@Suite struct WatchOperationTests {
    /// A listing server whose records change between listings: each listing is one page of `listings[n]`.
    static func server(_ listings: [String]) -> FakeTransport {
        FakeTransport { _, index in
            Fixtures.ok(#"{"data":{"listPosts":{"items":[\#(listings[min(index, listings.count - 1)])],"nextToken":null}}}"#)
        }
    }

    @Test func pollingReportsTheFirstListingThenTheDifferencesOfTheNext() throws {
        let transport = Self.server([#"{"id":"p1","title":"a"},{"id":"p2","title":"b"}"#, #"{"id":"p1","title":"A"},{"id":"p3","title":"c"}"#])
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 0))
        var operation = WatchOperation(
            model: "Post", requests: try ListOperation("Post", builder: context.builder).requests, pageSize: 100, keyFields: ["id"])
        operation.duration = 30
        var reported: [[WatchEvent]] = []
        var lastRecords: [JSONValue] = []
        let kind = operation.poll(every: 0.001, in: context, cancellation: CancellationFlag()) { report in
            guard case .changes(let events, let records) = report else { return true }
            reported.append(events)
            lastRecords = records
            return reported.count < 3  // the first listing's items, synced, then the second listing's changes
        }
        #expect(kind == .success)
        #expect(reported == [
            [.item(["id": "p1", "title": "a"]), .item(["id": "p2", "title": "b"])],
            [.synced(count: 2)],
            [.change(.update, ["id": "p1", "title": "A"]), .change(.create, ["id": "p3", "title": "c"]), .change(.delete, ["id": "p2", "title": "b"])],
        ])
        #expect(lastRecords == [["id": "p1", "title": "A"], ["id": "p3", "title": "c"]])
        #expect(transport.requests.count == 2)
    }

    @Test func aFirstListingThatFailsEndsThePollWithItsResult() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"errors":[{"message":"denied"}]}"#)])
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 0))
        let operation = WatchOperation(
            model: "Post", requests: try ListOperation("Post", builder: context.builder).requests, pageSize: 100, keyFields: ["id"])
        var failure: ListResult?
        let kind = operation.poll(every: 0.001, in: context, cancellation: CancellationFlag()) { report in
            if case .listingFailed(let result) = report { failure = result }
            return true
        }
        #expect(kind == .graphQLErrors)
        #expect(failure?.isComplete == false)
    }

    // MARK: - Through subscriptions

    /// A watch of Post's listing through the model's three subscriptions, over `server`; a test gone wrong ends after
    /// 10 seconds rather than hanging.
    static func subscriptionWatch(_ transport: FakeTransport) throws -> (WatchOperation, SubscribeOperation, APIContext) {
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 0))
        var operation = WatchOperation(
            model: "Post", requests: try ListOperation("Post", builder: context.builder).requests, pageSize: 100, keyFields: ["id"])
        operation.duration = 10
        let subscriptions = try SubscribeOperation.watching("Post", conditions: [], includes: [], builder: context.builder)
        return (operation, subscriptions, context)
    }

    /// A subscription event's payload: `change` (0 create, 1 update, 2 delete: the watch's subscriptions in order) of `record`.
    static func event(_ change: Int, _ record: String) -> (Int, String) {
        let field = ["onCreatePost", "onUpdatePost", "onDeletePost"][change]
        return (change, #"{"data":{"\#(field)":\#(record)}}"#)
    }

    /// The reports as short strings, for comparing whole runs: the changes one event a line.
    static func describe(_ report: WatchReport) -> [String] {
        switch report {
        case .changes(let events, _):
            return events.map { event in
                switch event {
                case .item(let record): return "item \(record["id"]?.stringValue ?? "") \(record["title"]?.stringValue ?? "")"
                case .synced(let count): return "synced \(count)"
                case .change(let kind, let record): return "\(kind) \(record["id"]?.stringValue ?? "") \(record["title"]?.stringValue ?? "")"
                }
            }
        case .subscribed(let names): return ["subscribed \(names.joined(separator: ","))"]
        case .relistedAfterReconnect(let changes): return ["relisted \(changes)"]
        case .pollFailed: return ["poll failed"]
        case .listingFailed(let result): return ["listing failed \(result.kind)"]
        case .live(let event):
            switch event {
            case .connectionLost: return ["connection lost"]
            case .resubscribed: return ["resubscribed"]
            case .completedByServer: return ["completed"]
            case .failed(let failure): return ["failed \(failure.error.kind)"]
            case .subscribed, .result, .graphQLErrors: return ["live"]
            }
        }
    }

    /// Runs the watch until the change `last` is reported: the reports as ``describe(_:)`` says them, and the records last
    /// reported.
    static func watch(
        _ operation: WatchOperation, _ subscriptions: SubscribeOperation, in context: APIContext, realtime: RealtimeContext,
        until last: String
    ) -> (ResultKind, [String], [JSONValue]) {
        var seen: [String] = []
        var lastRecords: [JSONValue] = []
        let kind = operation.run(subscriptions, in: context, realtime: realtime) { report in
            seen += describe(report)
            if case .changes(_, let records) = report { lastRecords = records }
            return seen.last != last
        }
        return (kind, seen, lastRecords)
    }

    @Test func changesArrivingOverTheSubscriptionsUpdateTheListedRecords() throws {
        let transport = Self.server([#"{"id":"p1","title":"a"},{"id":"p2","title":"b"}"#])
        let (operation, subscriptions, context) = try Self.subscriptionWatch(transport)
        let server = FakeRealtimeServer([
            .init(events: [
                Self.event(0, #"{"id":"p3","title":"c"}"#), Self.event(1, #"{"id":"p1","title":"A"}"#),
                Self.event(1, #"{"id":"p3","title":"c"}"#),  // the record as it is already: nothing to report
                Self.event(2, #"{"id":"p2","title":"b"}"#),
            ])
        ])
        let (kind, seen, lastRecords) = Self.watch(
            operation, subscriptions, in: context, realtime: try SubscribeOperationTests.context(server), until: "delete p2 b")
        #expect(kind == .success)
        #expect(seen == [
            "subscribed onCreatePost,onUpdatePost,onDeletePost", "item p1 a", "item p2 b", "synced 2",
            "create p3 c", "update p1 A", "delete p2 b",
        ])
        #expect(lastRecords == [["id": "p1", "title": "A"], ["id": "p3", "title": "c"]])
        #expect(transport.requests.count == 1)
        // The receiver's stop ended the subscriptions on the one connection.
        #expect(server.sockets.count == 1)
    }

    @Test func aReconnectionListsAgainAndSaysHowManyChangesThatMade() throws {
        let transport = Self.server([#"{"id":"p1","title":"a"},{"id":"p2","title":"b"}"#, #"{"id":"p1","title":"A"},{"id":"p3","title":"c"}"#])
        let (operation, subscriptions, context) = try Self.subscriptionWatch(transport)
        let server = FakeRealtimeServer([
            .init(dropWhenDone: true),
            .init(events: [Self.event(0, #"{"id":"p4","title":"d"}"#)]),
        ])
        let (kind, seen, lastRecords) = Self.watch(
            operation, subscriptions, in: context, realtime: try SubscribeOperationTests.context(server), until: "create p4 d")
        #expect(kind == .success)
        #expect(seen == [
            "subscribed onCreatePost,onUpdatePost,onDeletePost", "item p1 a", "item p2 b", "synced 2",
            "connection lost", "resubscribed", "update p1 A", "create p3 c", "delete p2 b", "relisted 3",
            // A change after the reconnection applies to the records listed again.
            "create p4 d",
        ])
        #expect(lastRecords == [["id": "p1", "title": "A"], ["id": "p3", "title": "c"], ["id": "p4", "title": "d"]])
        #expect(transport.requests.count == 2)
        #expect(server.sockets.count == 2)
    }

    @Test func aFirstListingThatFailsEndsTheSubscriptionsButNotTheCallersCancellation() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"errors":[{"message":"denied"}]}"#)])
        let (operation, subscriptions, context) = try Self.subscriptionWatch(transport)
        // A change is waiting: it must not be reported once the listing failed.
        let server = FakeRealtimeServer([.init(events: [Self.event(0, #"{"id":"p3","title":"c"}"#)])])
        var realtime = try SubscribeOperationTests.context(server)
        let callers = CancellationFlag()
        realtime.cancellation = callers
        var seen: [String] = []
        var failure: ListResult?
        let kind = operation.run(subscriptions, in: context, realtime: realtime) { report in
            seen += Self.describe(report)
            if case .listingFailed(let result) = report { failure = result }
            return true
        }
        #expect(kind == .graphQLErrors)
        #expect(seen == ["subscribed onCreatePost,onUpdatePost,onDeletePost", "listing failed graphQLErrors"])
        if case .graphQLErrors(let errors)? = failure?.stop {
            #expect(errors.map(\.message) == ["denied"])
        } else {
            Issue.record("expected the listing's GraphQL errors, got \(String(describing: failure?.stop))")
        }
        #expect(!callers.isCancelled)
        // The subscriptions were stopped on their one connection, not left to run out their time.
        #expect(server.sockets.count == 1)
        #expect(server.sockets.first?.sent.filter { $0["type"]?.stringValue == "stop" }.count == 3)
    }
}
