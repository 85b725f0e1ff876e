import Testing

@testable import gqlc

/// The lists derived from `CommandTable` cover every command in it: which commands accept the record formats
/// (and the message naming them), and what the bash, zsh and fish completion scripts offer for each command.
@Suite struct CommandTableCoverageTests {
    static let runnableNames = CommandTable.runnable.map(\.spec.name)

    /// The commands that print records, as the README's `--output` section and the end-to-end tests name them.
    static let expectedRecordCommands = ["get", "list", "create", "update", "delete", "query", "mutate", "raw"]

    @Test func theRecordCommandsAreTheOnesThatPrintRecords() {
        #expect(CommandLineParser.recordCommands.map(\.name) == Self.expectedRecordCommands)
    }

    /// Each command's first help example, given `--output tsv`, parses exactly when the command prints records;
    /// otherwise the one message names every record command.
    @Test(arguments: runnableNames)
    func recordFormatsAreJudgedForEveryCommand(name: String) throws {
        let command = try #require(CommandTable.spec(named: name))
        let example = try #require(
            command.examples.map { shellWords($0.command) }.first { usageError($0) == nil }, "\(name) has no example that parses")
        let error = usageError(example + ["--output", "tsv"])
        if Self.expectedRecordCommands.contains(name) {
            #expect(error == nil, "\(name) refuses --output tsv: \(error ?? "")")
        } else {
            #expect(
                error == "gqlc: '--output tsv' prints records (\(Self.expectedRecordCommands.joined(separator: ", "))); "
                    + "'\(name)' prints JSON: use --output json or ndjson")
        }
    }

    /// Every command and each of its options is offered by the bash/zsh script, with the completion its value needs.
    @Test(arguments: runnableNames)
    func theBashScriptCoversEveryCommand(name: String) throws {
        let command = try #require(CommandTable.spec(named: name))
        let script = CompletionScript.render(.bash)
        let lines = script.split(separator: "\n").map(String.init)
        let commandList = try #require(lines.first { $0.hasPrefix("    local commands='") })
        #expect(commandList.dropFirst("    local commands='".count).dropLast().split(separator: " ").contains(Substring(name)))
        if !command.options.isEmpty {
            let arm = try #require(lines.first { $0.hasPrefix("            \(name)) options+=' ") }, "no option arm for \(name)")
            // Whole words: `--include-deleted` alone must not pass for `--include`.
            let offered = Set(arm.split { $0 == " " || $0 == "'" }.map(String.init))
            for option in command.options { #expect(offered.contains(option.flagName), "\(name) arm lacks \(option.flagName)") }
        }
        for option in command.options where option.takesValue {
            let arm = try #require(
                lines.first { $0.hasSuffix(" return ;;") && armPatterns($0).contains(option.flagName) },
                "no value arm for \(option.flagName)")
            if let kind = option.modelValues {
                #expect(arm.contains("\(CompletionCandidates.commandName) \(kind.word) "), "\(option.flagName): \(arm)")
            }
        }
    }

    /// The fish script names every command and gives each of its options a line of its own.
    @Test(arguments: runnableNames)
    func theFishScriptCoversEveryCommand(name: String) throws {
        let command = try #require(CommandTable.spec(named: name))
        let lines = CompletionScript.render(.fish).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(" -a \(name) -d ") }, "fish does not offer \(name)")
        for option in command.options {
            let line = try #require(
                lines.first { $0.contains("-n '__fish_seen_subcommand_from \(name)' -l \(option.long) ") },
                "fish lacks \(name) \(option.flagName)")
            if let kind = option.modelValues { #expect(line.contains("(__gqlc_candidates \(kind.word)"), "\(line)") }
        }
    }

    /// The bash script completes a flag's value the same way for every command (its arms are keyed by the flag), so
    /// options of one name must agree on the names they complete: a new `--where` must say it takes field names.
    @Test func optionsOfOneNameCompleteTheSameValues() {
        var kinds: [String: CompletionCandidates.Kind?] = [:]
        for option in CommandTable.specs.flatMap(\.options) where option.takesValue {
            if let seen = kinds[option.long] {
                let message = "\(option.flagName) completes \(String(describing: seen)) in one command, "
                    + "\(String(describing: option.modelValues)) in another"
                #expect(seen == option.modelValues, "\(message)")
            } else {
                kinds[option.long] = option.modelValues
            }
        }
        // The options whose values are names from the model on the line.
        #expect(kinds["where"] == .where && kinds["if"] == .where && kinds["fields"] == .fields)
        #expect(kinds["include"] == .include && kinds["index"] == .index)
    }

    /// The patterns of a `case` arm such as `        --where|--if) …`.
    private func armPatterns(_ line: String) -> [String] {
        let head = line.drop { $0 == " " }.prefix { $0 != ")" }
        return head.split(separator: "|").map(String.init)
    }
}
