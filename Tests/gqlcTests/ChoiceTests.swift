import GQLCore
import Testing

@testable import gqlc

/// Parsing, errors, help and completion read a choice's words from its enum.
@Suite struct ChoiceTests {
    @Test func wordsPlaceholderAndAlternatives() {
        #expect(SortDirection.placeholder == "asc|desc" && SortDirection.alternatives == "asc or desc")
        #expect(GlobalOptions.OutputFormat.placeholder == "json|ndjson|table|tsv|raw")
        #expect(CompletionCommand.Shell.alternatives == "bash, zsh or fish")
        #expect(SortDirection.parse("DESC", ignoringCase: true) == .desc && GlobalOptions.OutputFormat.parse("JSON") == nil)
    }

    @Test func helpAndErrorsUseTheWords() {
        #expect(ListCommand.sort.usageForm == "--sort asc|desc")
        #expect(GlobalOptions.outputOption.usageForm == "--output json|ndjson|table|tsv|raw")
        #expect(usageError(["list", "Post", "--index", "i", "--sort", "up"])
            == "gqlc: invalid value 'up' for '--sort': expected asc or desc")
        #expect(usageError(["completion", "tcsh"]) == "gqlc: unknown shell 'tcsh'; expected bash, zsh or fish")
    }
}
