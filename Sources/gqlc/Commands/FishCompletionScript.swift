/// The text of `gqlc completion fish`, generated from the command table as the bash script is: commands with
/// their abstracts, every option with its help, files and fixed choices for values, model names from
/// `gqlc models`, and names from the model on the line (``CompletionCandidates``) for `--where`, `--fields`,
/// `--include`, `--index` and the `FIELD=` arguments of create and update.
enum FishCompletionScript {
    static func render() -> String {
        var lines = [
            "# fish completion for gqlc, from 'gqlc completion fish'.",
            "complete -c gqlc -e",
            "complete -c gqlc -f",
            "",
            "# The words after the command that are not options or option values.",
            "function __gqlc_positionals",
            "    set -l words (commandline -opc)",
            "    set -e words[1]",
            "    set -l command ''",
            "    set -l skip 0",
            "    for word in $words",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $word",
            "            case \(valueFlags.joined(separator: " "))",
            "                set skip 1",
            "            case '-*'",
            "            case '*'",
            "                if test -z \"$command\"",
            "                    set command $word",
            "                else",
            "                    echo $word",
            "                end",
            "        end",
            "    end",
            "end",
            "",
            "# --schema FILE as given on the line, so that names come from that schema.",
            "function __gqlc_schema",
            "    set -l words (commandline -opc)",
            "    set -l index (contains -i -- --schema $words)",
            "    and test (count $words) -gt $index",
            "    and printf '%s\\n' --schema $words[(math $index + 1)]",
            "end",
            "",
            "function __gqlc_models",
            "    gqlc (__gqlc_schema) models 2>/dev/null | while read -l line",
            "        test -z \"$line\"; and break",
            "        echo $line",
            "    end",
            "end",
            "",
            "# Names from the model on the line; after a comma (--fields a,b) the text before it is kept.",
            "function __gqlc_candidates",
            "    set -l model (__gqlc_positionals)[1]",
            "    test -n \"$model\"; or return",
            "    set -l head (string match -r -- '^.*,' (commandline -ct))",
            "    for word in (gqlc \(CompletionCandidates.commandName) $argv[1] $model (__gqlc_schema) 2>/dev/null)",
            "        echo \"$head$word$argv[2]\"",
            "    end",
            "end",
            "",
            "function __gqlc_argument_count",
            "    count (__gqlc_positionals)",
            "end",
            "",
        ]
        let commands = CommandTable.specs
        let names = commands.map(\.name).joined(separator: " ")
        for command in commands {
            lines.append("complete -c gqlc -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d \(quoted(command.abstract))")
        }
        lines.append("")
        for option in GlobalOptions.all { lines.append(line(option, condition: nil)) }
        for command in commands {
            for option in command.options {
                lines.append(line(option, condition: "__fish_seen_subcommand_from \(command.name)"))
            }
        }
        lines.append("")
        let modelCommands = commands.filter { $0.arguments.first?.name == "MODEL" }.map(\.name).joined(separator: " ")
        lines.append(
            "complete -c gqlc -n '__fish_seen_subcommand_from \(modelCommands); and test (__gqlc_argument_count) -eq 0' "
                + "-a '(__gqlc_models)'")
        lines.append("complete -c gqlc -n '__fish_seen_subcommand_from \(CreateCommand.spec.name); and test (__gqlc_argument_count) -ge 1' "
            + "-a '(__gqlc_candidates assign =)'")
        lines.append("complete -c gqlc -n '__fish_seen_subcommand_from \(UpdateCommand.spec.name); and test (__gqlc_argument_count) -ge 1' "
            + "-a '(__gqlc_candidates change =)'")
        lines.append("complete -c gqlc -n '__fish_seen_subcommand_from \(RawCommand.spec.name)' -F")
        lines.append("complete -c gqlc -n '__fish_seen_subcommand_from \(CompletionCommand.spec.name)' -a '\(CompletionCommand.Shell.words.joined(separator: " "))'")
        lines.append("complete -c gqlc -n '__fish_seen_subcommand_from \(HelpCommand.spec.name)' -a '\(names)'")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every flag that takes a value, spelled as typed.
    private static var valueFlags: [String] {
        var seen = Set<String>()
        return (GlobalOptions.all + CommandTable.specs.flatMap(\.options)).filter { $0.valueName != nil && seen.insert($0.long).inserted }
            .flatMap { option in [option.flagName] + (option.short.map { ["-\($0)"] } ?? []) }
    }

    /// `complete -c gqlc [-n COND] -l LONG [-s S] [-r -F | -x -a …] -d HELP`.
    private static func line(_ option: OptionSpec, condition: String?) -> String {
        var parts = ["complete -c gqlc"]
        if let condition { parts.append("-n '\(condition)'") }
        parts.append("-l \(option.long)")
        if let short = option.short { parts.append("-s \(short)") }
        if let value = option.valueName {
            if option == GlobalOptions.envOption {
                parts.append("-x -a '(gqlc env list 2>/dev/null | string split -f1 \" \")'")
            } else if let kind = option.modelValues {
                let suffix = kind == .fields || kind == .where ? " ''" : ""
                parts.append("-x -a '(__gqlc_candidates \(kind.word)\(suffix))'")
            } else {
                switch CompletionScript.completion(ofValue: value) {
                case .files: parts.append("-r -F")
                case .choices(let words): parts.append("-x -a '\(words.joined(separator: " "))'")
                default: parts.append("-x")
                }
            }
        }
        parts.append("-d \(quoted(firstSentence(option.help)))")
        return parts.joined(separator: " ")
    }

    /// The text up to its first full stop followed by a space (dots inside `a.b` paths are not sentence ends).
    private static func firstSentence(_ text: String) -> String {
        let characters = Array(text)
        for index in characters.indices where characters[index] == "." {
            if index + 1 == characters.count || characters[index + 1] == " " { return String(characters[..<index]) }
        }
        return text
    }

    /// A fish single-quoted string.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }
}

extension String {
    /// The text with every `target` replaced by `replacement`.
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
