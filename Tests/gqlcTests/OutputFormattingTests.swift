import GQLCore
import Testing

@testable import gqlc

/// The executable's output pieces: the progress line and roff escaping (the writers are tested in GQLCoreTests).
@Suite struct OutputFormattingTests {
    @Test func progressLine() {
        #expect(ProgressReporter.line(items: 1234, pages: 2, elapsed: .milliseconds(1500)) == "1,234 items, 2 pages, 822 items/s, 1.5 s")
        #expect(ProgressReporter.line(items: 1, pages: 1, elapsed: .zero) == "1 item, 1 page, 0.0 s")
        #expect(ProgressReporter.line(items: 30, pages: 0, failed: 2, elapsed: .seconds(2)) == "30 items, 2 failed, 15 items/s, 2.0 s")
        #expect(ProgressReporter.grouped(1_000_000) == "1,000,000")
    }

    @Test func roffEscaping() {
        #expect(ManPageRenderer.escape("--where a\\b") == "\\-\\-where a\\eb")
        #expect(ManPageRenderer.escape(".hidden\n'quote") == "\\&.hidden\n\\&'quote")
    }
}
