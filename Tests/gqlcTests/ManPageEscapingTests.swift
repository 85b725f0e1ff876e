import GQLCore
import Testing

@testable import gqlc

/// The man page renderer escapes what roff would take as a request or an escape.
@Suite struct ManPageEscapingTests {
    @Test func roffEscaping() {
        #expect(ManPageRenderer.escape("--where a\\b") == "\\-\\-where a\\eb")
        #expect(ManPageRenderer.escape(".hidden\n'quote") == "\\&.hidden\n\\&'quote")
    }
}
