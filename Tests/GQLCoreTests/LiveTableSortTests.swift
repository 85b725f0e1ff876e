import Testing

@testable import GQLCore

/// The order of a live table as a user writes it: `FIELD` smallest first, `-FIELD` largest first.
@Suite struct LiveTableSortTests {
    @Test func aLeadingMinusMeansLargestFirst() {
        #expect(LiveTable.Sort(parsing: "rating") == LiveTable.Sort(field: "rating", descending: false))
        #expect(LiveTable.Sort(parsing: "-rating") == LiveTable.Sort(field: "rating", descending: true))
        #expect(LiveTable.Sort(parsing: "-blog.name") == LiveTable.Sort(field: "blog.name", descending: true))
    }
}
