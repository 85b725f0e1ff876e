import Testing
@testable import GQLCore

/// ``RefusedWrite``: after gqlc's own retry, whether a refused write was applied by its first attempt.
@Suite struct RefusedWriteTests {
    static let lookup = Fixtures.query  // getPost(id: "p1") { id }

    static func refused(_ operation: BulkOperation, sent: JSONValue = ["id": "p1", "title": "New"]) -> RefusedWrite {
        RefusedWrite(operation: operation, sent: sent, key: ["id": "p1"], lookup: lookup)
    }

    static func check(_ refused: RefusedWrite, answer: FakeTransport.Reply) throws -> RefusedWrite.Finding {
        refused.check(client: try Fixtures.client(FakeTransport([answer]), retries: 0))
    }

    @Test func aRecordHoldingWhatWasSentWasApplied() throws {
        let stored = #"{"data":{"getPost":{"id":"p1","title":"New","views":3,"__typename":"Post"}}}"#
        let finding = try Self.check(Self.refused(.create), answer: Fixtures.ok(stored))
        guard case .applied(let record) = finding else { Issue.record("\(finding)"); return }
        #expect(record["views"] == 3)
        #expect(try Self.check(Self.refused(.update), answer: Fixtures.ok(stored)) == finding)
    }

    @Test func aRecordWithOtherValuesDiffers() throws {
        let other = Fixtures.ok(#"{"data":{"getPost":{"id":"p1","title":"Old"}}}"#)
        #expect(try Self.check(Self.refused(.create), answer: other) == .differs)
        #expect(try Self.check(Self.refused(.update), answer: other) == .differs)
        // A delete whose record is still there was not applied.
        #expect(try Self.check(Self.refused(.delete, sent: ["id": "p1"]), answer: other) == .differs)
    }

    @Test func aMissingRecordIsADeleteDoneAndAnUpdateNotFound() throws {
        let none = Fixtures.ok(#"{"data":{"getPost":null}}"#)
        #expect(try Self.check(Self.refused(.delete, sent: ["id": "p1"]), answer: none) == .applied(["id": "p1"]))
        #expect(try Self.check(Self.refused(.update), answer: none) == .missing)
    }

    @Test func aFailedReadOrNoGetTellsNothing() throws {
        #expect(try Self.check(Self.refused(.create), answer: Fixtures.status(500)) == .unknown)
        let noGet = RefusedWrite(operation: .delete, sent: nil, key: ["id": "p1"], lookup: nil)
        #expect(noGet.check(client: try Fixtures.client(FakeTransport([]))) == .unknown)
    }

    @Test func holdsComparesWhatTheServerMayWriteDifferently() {
        // Numbers by value, AWSJSON text by its JSON, members not selected cannot tell against.
        #expect(RefusedWrite.holds(["score": .number(JSONNumber("4.5")!)], ["score": .number(JSONNumber("4.50")!)]))
        #expect(RefusedWrite.holds(["meta": #"{"a": 1, "b": [2]}"#], ["meta": #"{"a":1,"b":[2]}"#]))
        #expect(!RefusedWrite.holds(["meta": #"{"a": 1}"#], ["meta": #"{"a":1,"b":2}"#]))
        #expect(RefusedWrite.holds(["id": "p1"], ["id": "p1", "postBlogId": "b1"]))
        #expect(!RefusedWrite.holds(["tags": ["a", "b"]], ["tags": ["a"]]))
        #expect(!RefusedWrite.holds(["title": "x"], ["title": "y"]))
        #expect(!RefusedWrite.holds(["title": "x"], nil))
    }
}
