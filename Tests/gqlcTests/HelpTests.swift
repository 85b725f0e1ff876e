import Testing

@testable import gqlc

@Suite struct HelpTests {
    static let commandNames = CommandTable.specs.map(\.name)

    @Test(arguments: [[], ["help"], ["--help"], ["-h"], ["-v", "--help"]])
    func overviewGoesToStandardOutputWithStatusZero(arguments: [String]) {
        let result = runGQLC(arguments)
        #expect(result.code == .success)
        #expect(result.error.isEmpty)
        #expect(result.output == HelpText.render(topic: nil))
        #expect(result.output.hasPrefix("Usage: gqlc [OPTIONS] COMMAND [ARGUMENTS]...\n"))
    }

    @Test func overviewListsCommandsGlobalOptionsAndExitCodes() {
        let text = HelpText.render(topic: nil)
        for command in CommandTable.specs {
            #expect(text.contains("\n  \(command.name)  "), "overview lacks \(command.name)")
        }
        for option in GlobalOptions.all {
            #expect(text.contains(option.usageForm), "overview lacks \(option.usageForm)")
        }
        for (code, meaning) in [
            ("0", "success"), ("1", "GraphQL errors and no data"), ("2", "usage or input error"),
            ("3", "partial data"), ("4", "not found"), ("5", "HTTP error status"), ("6", "network failure or timeout"),
            ("7", "output could not be written"), ("141", "SIGPIPE"),
        ] {
            #expect(text.contains("\n  \(code)  ") && text.contains(meaning), "exit status \(code)")
        }
        #expect(text.contains("$GQLC_SCHEMA"))
    }

    @Test(arguments: commandNames)
    func everySpellingOfCommandHelpPrintsTheSamePage(name: String) {
        let page = HelpText.render(topic: name)
        for arguments in [["help", name], [name, "--help"], [name, "-h"], ["--help", name], [name, "--verbose", "-h"]] {
            let result = runGQLC(arguments)
            #expect(result.code == .success, "\(arguments)")
            #expect(result.output == page, "\(arguments)")
            #expect(result.error.isEmpty)
        }
    }

    @Test(arguments: commandNames)
    func commandPageHasSynopsisOptionsDefaultsAndExamples(name: String) throws {
        let command = try #require(CommandTable.spec(named: name))
        let text = HelpText.render(topic: name)
        let full = HelpText.render(topic: name, allGlobalOptions: true)
        #expect(text.hasPrefix("Usage: gqlc \(name)"))
        #expect(text.contains(command.abstract))
        // The global options are listed by name; --help-all explains them as the command's own options are.
        for option in command.options + GlobalOptions.all {
            #expect(text.contains(option.usageForm), "\(name) help lacks \(option.usageForm)")
            let explained = command.options.contains(option) ? text : full
            if let value = option.defaultDescription { #expect(explained.contains("default: \(value)")) }
            if let variable = option.environmentVariable { #expect(explained.contains("env: \(variable)")) }
        }
        for argument in command.arguments {
            #expect(text.contains("\n  \(argument.name)  "), "\(name) help lacks argument \(argument.name)")
        }
        // `version` has one thing to show.
        #expect(command.examples.count >= (name == VersionCommand.spec.name ? 1 : 2), "\(name) needs at least two examples")
        for example in command.examples {
            #expect(text.contains("# " + example.comment))
            #expect(text.contains(example.command.replacingOccurrences(of: "\n", with: "\n  ")))
        }
    }

    @Test(arguments: commandNames)
    func synopsisMentionsEveryCommandOption(name: String) throws {
        let command = try #require(CommandTable.spec(named: name))
        let synopsis = command.synopsis.joined(separator: " ")
        for option in command.options {
            #expect(synopsis.contains(option.usageForm), "\(name) synopsis lacks \(option.usageForm)")
        }
    }

    @Test(arguments: [nil] + commandNames)
    func everyLineFitsEightyColumns(topic: String?) {
        for line in HelpText.render(topic: topic).split(separator: "\n") {
            #expect(line.count <= 80, "\(topic ?? "overview"): \(line)")
            #expect(!line.hasSuffix(" "), "trailing space: \(line)")
        }
    }

    @Test(arguments: commandNames)
    func everyExampleIsAValidCommandLine(name: String) throws {
        let command = try #require(CommandTable.spec(named: name))
        for example in command.examples {
            let words = shellWords(example.command)
            #expect(words.first == name, "\(example.command)")
            #expect(usageError(words) == nil, "example does not parse: \(example.command)")
        }
    }

    @Test func overviewExamplesAreValidCommandLines() {
        let text = HelpText.render(topic: nil)
        let examples = text.components(separatedBy: "Examples:\n")[1].split(separator: "\n").prefix { $0.hasPrefix("  gqlc") }
        #expect(examples.count >= 5)
        for line in examples {
            #expect(usageError(shellWords(String(line))) == nil, "\(line)")
        }
    }

    /// The overview and the --schema option say the same about where the schema is found: the nearest
    /// amplify_outputs.json, else a Gen 1 schema.graphql or its split schema/ folder (docs/schema-sources.md).
    @Test func everyPageNamesEverySchemaGqlcLooksFor() {
        func unwrapped(_ text: String) -> String {
            text.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
        }
        let overview = unwrapped(HelpText.render(topic: nil))
        for term in ["amplify_outputs.json", "amplify/backend/api/NAME/schema.graphql", "its schema/ folder",
                     "'gqlc schema pull' cached for the endpoint", "src/aws-exports.js"] {
            #expect(overview.contains(term), "overview lacks \(term)")
        }
        for command in CommandTable.specs {
            let page = unwrapped(HelpText.render(topic: command.name, allGlobalOptions: true))
            for term in ["amplify_outputs.json", "amplify/backend/api/NAME/schema.graphql", "(or NAME/schema/)",
                         "a folder of .graphql files", "aws-exports.js"] {
                #expect(page.contains(term), "\(command.name) help lacks \(term)")
            }
        }
    }

    @Test func listHelpDocumentsTheWhereGrammar() {
        let text = HelpText.render(topic: "list")
        for term in ["FIELD=VALUE", "FIELD!=VALUE", "FIELD<VALUE", "FIELD<=VALUE", "FIELD>VALUE", "FIELD>=VALUE",
                     "FIELD^=VALUE", "FIELD*=VALUE", "FIELD!*=VALUE", "FIELD=LOW..HIGH", "FIELD?", "FIELD!?"] {
            #expect(text.contains("\n  \(term) "), "list help lacks \(term)")
        }
        #expect(text.contains("null"))
        #expect(text.contains("--where post=p1"))
        #expect(text.contains("(default: 1000)"))
    }

    @Test func helpBeatsAMistakeInTheSameCommandLine() {
        let result = runGQLC(["list", "--limt", "--help"])
        #expect(result.code == .success)
        #expect(result.output == HelpText.render(topic: "list"))
        #expect(runGQLC(["get", "Post", "--id", "--help"]).output == HelpText.render(topic: "get"))
    }

    @Test func helpAfterDoubleDashIsAnArgument() {
        let result = runGQLC(["create", "Post", "--", "--help"])
        #expect(!result.output.contains("Usage:"))
        guard let create = try? invocation(["create", "Post", "--", "--help"]).command.invocation(as: CreateInvocation.self) else {
            Issue.record("expected a create invocation")
            return
        }
        #expect(create.assignments == ["--help"])
    }

    @Test func helpDoesNotHideAnUnknownCommand() {
        let result = runGQLC(["lsit", "--help"])
        #expect(result.code == .usage)
        #expect(result.error == "gqlc: unknown command 'lsit'; did you mean 'list'?\n")
    }

    @Test(arguments: [["--version"], ["list", "--version"], ["--version", "get"]])
    func version(arguments: [String]) {
        let result = runGQLC(arguments)
        #expect(result.code == .success)
        #expect(result.output == "gqlc 0.1.0\n")
        #expect(result.error.isEmpty)
    }
}
