import GQLCore
import Testing

@testable import gqlc

/// Parsing, errors, help and completion read a choice's words from its enum.
@Suite struct ChoiceTests {
    @Test func wordsPlaceholderAndAlternatives() {
        #expect(SortDirection.placeholder == "asc|desc" && SortDirection.alternatives == "asc or desc")
        #expect(GlobalOptions.OutputFormat.placeholder == "json|ndjson")
        #expect(CompletionCommand.Shell.alternatives == "bash or zsh")
        #expect(SortDirection.parse("DESC", ignoringCase: true) == .desc && GlobalOptions.OutputFormat.parse("JSON") == nil)
    }

    @Test func helpAndErrorsUseTheWords() {
        #expect(ListCommand.sort.usageForm == "--sort asc|desc")
        #expect(GlobalOptions.outputOption.usageForm == "--output json|ndjson")
        #expect(usageError(["list", "Post", "--index", "i", "--sort", "up"])
            == "gqlc: invalid value 'up' for '--sort': expected asc or desc")
        #expect(usageError(["completion", "fish"]) == "gqlc: unknown shell 'fish'; expected bash or zsh")
    }
}
