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
}
