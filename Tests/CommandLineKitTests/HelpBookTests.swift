import CommandLineKit
import Testing

/// The pages of a made-up program's help book: which page a topic opens, and where the global options are explained.
@Suite struct HelpBookTests {
    static let book = HelpBook(
        programName: "tool", globalOptions: [HelpRendererTests.header, HelpRendererTests.config],
        commands: [HelpRendererTests.fetch], optionsTopic: "options",
        settings: [HelpSection("Configuration", [.paragraph("Settings come from flags.")])])

    @Test func topicsOpenTheirPagesAndUnknownOnesNone() throws {
        #expect(Self.book.page(topic: nil) == nil)
        #expect(Self.book.page(topic: "nope") == nil)
        let options = try #require(Self.book.page(topic: "options"))
        #expect(options.usage == ["tool [OPTIONS] COMMAND [ARGUMENTS]..."])
        #expect(options.sections.map(\.title) == ["Global options", "Configuration"])
        let fetch = try #require(Self.book.page(topic: "fetch"))
        #expect(fetch.usage == ["tool fetch NAME [--limit N]"])
        let listed = Self.unwrapped(HelpRenderer().render(fetch))
        #expect(listed.contains("They go before or after the command; 'tool fetch --help-all' or 'tool help options' explains each."))
        let explained = HelpRenderer().render(try #require(Self.book.page(topic: "fetch", allGlobalOptions: true)))
        #expect(!explained.contains("explains each") && explained.contains("Read FILE."))
    }

    @Test func overviewListsCommandsThenGlobalOptionsSettingsAndTheGivenSections() {
        let overview = Self.book.overview(
            abstract: "A tool.", allGlobalOptions: false, sections: [HelpSection("Exit status", [.paragraph("0 ok")])])
        #expect(overview.sections.map(\.title) == ["Commands", "Global options", "Configuration", "Exit status", nil])
        let text = Self.unwrapped(HelpRenderer().render(overview))
        #expect(text.contains("'tool help options' explains each."))
        #expect(text.hasSuffix("Run 'tool help COMMAND' or 'tool COMMAND --help' for a command's options and examples."))
        let full = Self.book.overview(abstract: "A tool.", allGlobalOptions: true, sections: [])
        #expect(full.sections.map(\.title) == ["Commands", "Global options (before or after the command)", "Configuration", nil])
    }

    @Test func helpTopicsAreCommandsOrTheOptionsTopicAndUnknownOnesAreSuggested() throws {
        let help = CommandSpec(name: "help", abstract: "Help.", synopsis: ["[COMMAND]"])
        func topic(_ positionals: [String]) throws(UsageError) -> String? {
            try Self.book.topic(from: CommandArguments(programName: "tool", command: help, options: ParsedOptions(), positionals: positionals))
        }
        #expect(try topic([]) == nil)
        #expect(try topic(["fetch"]) == "fetch")
        #expect(try topic(["options"]) == "options")
        #expect(throws: UsageError("unknown command 'fetsh'; did you mean 'fetch'?")) { try topic(["fetsh"]) }
        #expect(throws: UsageError("unknown command 'zzzzzz'; run 'tool help' for the list of commands")) { try topic(["zzzzzz"]) }
        #expect(throws: UsageError("unexpected argument 'b'; usage: tool help [COMMAND]")) { try topic(["fetch", "b"]) }
    }

    /// The rendered text with its line breaks and indents as single spaces.
    static func unwrapped(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
}
