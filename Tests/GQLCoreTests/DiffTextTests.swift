@testable import GQLCore
import Testing

/// diff's text for people: the summary line and the difference lines, plain and in colour.
@Suite struct DiffTextTests {
    private func counts(added: Int, removed: Int, changed: Int) -> DiffCounts {
        var counts = DiffCounts()
        counts.added = added
        counts.removed = removed
        counts.changed = changed
        return counts
    }

    private let changed = RecordDifference(
        operation: .changed, model: "Post", key: ["id": "p1"], fields: ["title", "views"], from: [:], to: [:])

    @Test func plain() {
        let text = DiffText(palette: nil)
        #expect(text.summary(model: "Post", counts(added: 1, removed: 0, changed: 2)) == "Post: 1 added, 0 removed, 2 changed\n")
        #expect(text.line(changed) == "~ Post id=p1: title, views\n")
        var removed = changed
        removed.operation = .removed
        #expect(text.line(removed) == "- Post id=p1\n")
    }

    @Test func colouredCountsOnlyWhenNotZero() {
        let text = DiffText(palette: .standard)
        #expect(text.summary(model: "Tag", counts(added: 0, removed: 3, changed: 0))
            == "\u{1B}[1mTag\u{1B}[0m: 0 added, \u{1B}[31m3 removed\u{1B}[0m, 0 changed\n")
        #expect(text.line(changed) == "\u{1B}[33m~ Post id=p1: title, views\u{1B}[0m\n")
    }
}
