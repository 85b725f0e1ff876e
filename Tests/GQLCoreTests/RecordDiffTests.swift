import Testing

@testable import GQLCore

/// Comparing records by primary key: what is added, removed and changed, and what is never compared.
@Suite struct RecordDiffTests {
    /// Records handed out from memory.
    struct Records: RecordStream {
        var items: [BulkInputItem]
        init(_ records: [JSONValue]) {
            items = records.enumerated().map { BulkInputItem(index: $0.offset, line: $0.offset + 1, bytes: Array($0.element.serialized(.compact).utf8)) }
        }
        mutating func nextItem() throws(BulkInputError) -> BulkInputItem? { items.isEmpty ? nil : items.removeFirst() }
        var failure: String? { nil }
        func close() {}
    }

    func model() throws -> Model {
        let file = try SchemaLoader.load(bytes: Array("type Post @model { id: ID! title: String views: Int }".utf8), path: "s.graphql")
        return try #require(file.schema?.models["Post"])
    }

    @Test func addedRemovedAndChangedByKey() throws {
        let from: [JSONValue] = [
            ["id": "p1", "title": "a", "views": 1, "updatedAt": "2025-01-01T00:00:00.000Z", "__typename": "Post"],
            ["id": "p2", "title": "b", "views": 2], ["id": "p3", "title": "c", "views": 3],
        ]
        let to: [JSONValue] = [
            ["id": "p3", "title": "c", "views": 3], ["id": "p1", "title": "a", "views": 1, "updatedAt": "2026-01-01T00:00:00.000Z"],
            ["id": "p2", "title": "B", "views": 2], ["id": "p4", "title": "d"],
        ]
        var found: [RecordDifference] = []
        let counts = try RecordDiff(model: model()).run(open: { toSide in Records(toSide ? to : from) }, emit: { found.append($0) })
        #expect(counts == { var c = DiffCounts(); c.added = 1; c.removed = 0; c.changed = 1; c.compared = 3; return c }())
        #expect(found.map(\.operation) == [.added, .changed])
        #expect(found[1].key == ["id": "p2"] && found[1].fields == ["title"])
        #expect(found[0].json["from"] == .null)
    }

    @Test func ignoredAndLimitedFields() throws {
        let from: [JSONValue] = [["id": "p1", "title": "a", "views": 1]]
        let to: [JSONValue] = [["id": "p1", "title": "z", "views": 1]]
        let ignoring = RecordDiff(model: try model(), ignore: ["title"])
        #expect(try ignoring.run(open: { toSide in Records(toSide ? to : from) }, emit: { _ in }).same)
        let limited = RecordDiff(model: try model(), fields: ["views"])
        #expect(try limited.run(open: { toSide in Records(toSide ? to : from) }, emit: { _ in }).same)
    }

    /// A listing that ended early: its failure kind (as `list` would exit) and which side it was.
    struct Failed: RecordStream {
        mutating func nextItem() throws(BulkInputError) -> BulkInputItem? { nil }
        var failure: String? { "HTTP 401" }
        var failureKind: ResultKind { .httpError }
        func close() {}
    }

    @Test func aFailedListingKeepsItsKindAndSide() throws {
        let diff = RecordDiff(model: try model())
        let records: [JSONValue] = [["id": "p1"]]
        #expect(throws: DiffFailure("listing Post failed: HTTP 401", kind: .httpError, toSide: true)) {
            try diff.run(open: { toSide in toSide ? Failed() as any RecordStream : Records(records) }, emit: { _ in })
        }
        #expect(throws: DiffFailure("listing Post failed: HTTP 401", kind: .httpError, toSide: false)) {
            try diff.run(open: { toSide in toSide ? Records(records) as any RecordStream : Failed() }, emit: { _ in })
        }
        // A stream that does not say how it failed counts as GraphQL errors (1).
        #expect(Records([]).failureKind == .graphQLErrors)
    }
}
