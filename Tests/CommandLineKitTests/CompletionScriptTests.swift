import CommandLineKit
import Foundation
import Testing

/// The completion scripts of a made-up program: the bash function is run in a real bash with the words a shell
/// would pass, so these check what Tab offers; the fish script is checked line by line.
@Suite struct CompletionScriptTests {
    static let config = OptionSpec(long: "config", value: "FILE", help: "Read FILE. More words.")
    static let verbose = OptionSpec(long: "verbose", short: "v", help: "Say more.")
    static let color = OptionSpec(long: "color", value: "auto|never", help: "Colour output.")
    static let format = OptionSpec(long: "format", value: "json|text", help: "The output's format.")
    static let tag = OptionSpec(long: "tag", value: "TAG", help: "Only items with TAG: it's a word.")
    static let fetch = CommandSpec(
        name: "fetch", abstract: "Fetch an item.", synopsis: ["ITEM"], arguments: [ArgumentSpec(name: "ITEM", help: "")],
        options: [format, tag])
    static let help = CommandSpec(
        name: "help", abstract: "Show help.", synopsis: ["[COMMAND]"], arguments: [ArgumentSpec(name: "COMMAND", help: "")])
    static let bash = BashCompletionScript(
        CompletionProgram(programName: "tool", globalOptions: [config, verbose, color], commands: [fetch, help], contextOption: config))

    /// Tags are the program's own words; they echo the context option, to show it is passed on.
    static func optionValue(_ option: OptionSpec) -> ValueCompletion? {
        option == tag ? .custom("COMPREPLY=($(compgen -W \"red green ctx=${#context[@]}:${context[1]}\" -- \"$cur\"))") : nil
    }

    static func argument(_ command: CommandSpec) -> BashCompletionScript.ArgumentCompletion {
        switch command.name {
        case "help": .first(.commands)
        case "fetch": .custom("COMPREPLY=(\"item$positionals-$first\")")
        default: .nothing
        }
    }

    /// What Tab offers for the last of `words` (after `tool`), in bash.
    func complete(_ words: [String]) throws -> [String] {
        let script = Self.bash.bashScript(generator: "tool completion bash", optionValue: Self.optionValue, argument: Self.argument)
        let quoted = (["tool"] + words).map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "--norc", "--noprofile", "-c",
            script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)\n_tool; printf '%s\\n' \"${COMPREPLY[@]}\"\n",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func bashOffersCommandsOptionsAndValues() throws {
        #expect(try complete([""]) == ["fetch", "help"])
        #expect(try complete(["fe"]) == ["fetch"])
        #expect(try complete(["--"]) == ["--config", "--verbose", "--color"])
        #expect(try complete(["fetch", "--"]) == ["--config", "--verbose", "--color", "--format", "--tag"])
        #expect(try complete(["--color", ""]) == ["auto", "never"])
        #expect(try complete(["fetch", "--format", "=", "j"]) == ["json"])
        #expect(try complete(["help", ""]) == ["fetch", "help"])
        #expect(try complete(["help", "fetch", ""]) == [])
        // The program's own code sees the context option, the first argument and the count of arguments.
        #expect(try complete(["--config", "a.conf", "fetch", "--tag", ""]) == ["red", "green", "ctx=2:a.conf"])
        #expect(try complete(["fetch", "--tag", ""]) == ["red", "green", "ctx=0:"])
        #expect(try complete(["fetch", "x", "-v", "y", ""]) == ["item2-x"])
    }

    @Test func zshRunsTheBashFunctionThroughBashcompinit() {
        let zsh = Self.bash.zshScript(generator: "tool completion zsh", optionValue: Self.optionValue, argument: Self.argument)
        #expect(zsh.hasPrefix("#compdef tool\n# zsh completion for tool, from 'tool completion zsh'"))
        #expect(zsh.contains("autoload -U +X bashcompinit && bashcompinit\n_tool() {\n"))
        #expect(zsh.hasSuffix("complete -F _tool tool\nif (( ${+compstate} )); then _bash_complete -F _tool; fi\n"))
    }

    @Test func fishPrintsTheContextOptionAsGivenForTheProgramsCompletions() {
        func script(_ context: OptionSpec?) -> [String] {
            FishCompletionScript(CompletionProgram(programName: "tool", globalOptions: [Self.config], commands: [Self.fetch], contextOption: context))
                .script(generator: "g", functions: [], optionValue: { _ in nil }, arguments: [])
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        let lines = script(Self.config)
        let start = lines.firstIndex(of: "function __tool_context")
        #expect(start.map { Array(lines[$0...].prefix(6)) } == [
            "function __tool_context",
            "    set -l words (commandline -opc)",
            "    set -l index (contains -i -- --config $words)",
            "    and test (count $words) -gt $index",
            "    and printf '%s\\n' --config $words[(math $index + 1)]",
            "end",
        ])
        #expect(!script(nil).contains { $0.contains("__tool_context") })
    }

    @Test func fishGivesEveryCommandAndOptionALine() {
        let fish = FishCompletionScript(
            CompletionProgram(programName: "tool", globalOptions: [Self.config, Self.verbose, Self.color], commands: [Self.fetch, Self.help]))
            .script(
                generator: "tool completion fish", functions: ["function __tool_tags", "    echo red", "end"],
                optionValue: { $0 == Self.tag ? .custom("__tool_tags") : nil },
                arguments: [
                    .init(["fetch"], .first, .custom("tool list")), .init(["fetch"], .afterFirst, .files),
                    .init(["help"], .any, .commands),
                ])
        let lines = fish.split(separator: "\n").map(String.init)
        #expect(lines.first == "# fish completion for tool, from 'tool completion fish'.")
        #expect(lines.contains("            case --config --color --format --tag"), "the value options the positionals skip")
        for line in [
            "function __tool_tags",
            "complete -c tool -n 'not __fish_seen_subcommand_from fetch help' -a fetch -d 'Fetch an item.'",
            "complete -c tool -l config -r -F -d 'Read FILE'",
            "complete -c tool -l verbose -s v -d 'Say more'",
            "complete -c tool -l color -x -a 'auto never' -d 'Colour output'",
            "complete -c tool -n '__fish_seen_subcommand_from fetch' -l format -x -a 'json text' -d 'The output\\'s format'",
            "complete -c tool -n '__fish_seen_subcommand_from fetch' -l tag -x -a '(__tool_tags)' -d 'Only items with TAG: it\\'s a word'",
            "complete -c tool -n '__fish_seen_subcommand_from fetch; and test (__tool_argument_count) -eq 0' -a '(tool list)'",
            "complete -c tool -n '__fish_seen_subcommand_from fetch; and test (__tool_argument_count) -ge 1' -F",
            "complete -c tool -n '__fish_seen_subcommand_from help' -a 'fetch help'",
        ] {
            #expect(lines.contains(line), "missing: \(line)")
        }
    }

    @Test func valuesAreInferredFromThePlaceholder() {
        #expect(ValueCompletion.inferred(fromPlaceholder: "FILE") == .files)
        #expect(ValueCompletion.inferred(fromPlaceholder: "FILE|-") == .files)
        #expect(ValueCompletion.inferred(fromPlaceholder: "json|ndjson") == .choices(["json", "ndjson"]))
        #expect(ValueCompletion.inferred(fromPlaceholder: "N") == .nothing)
        #expect(ValueCompletion.inferred(fromPlaceholder: "A,B") == .nothing)
    }
}
