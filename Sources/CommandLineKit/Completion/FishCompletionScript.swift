/// A fish completion script for a program with commands, generated from its specs as the bash script is:
/// commands with their abstracts, every option with the first sentence of its help, and the values of options
/// and arguments as the program says.
///
/// Custom completions (``ValueCompletion/custom(_:)``) are fish commands whose output lines are the words; they
/// may call `__NAME_positionals` (the arguments after the command, one per line), `__NAME_argument_count`,
/// `__NAME_context` (the context option and its value as given on the line, as the bash script's `context`) and the
/// functions the program adds (``script(generator:functions:optionValue:arguments:)``).
public struct FishCompletionScript: Sendable {
    /// The program it completes.
    public var program: CompletionProgram

    /// The fish script of `program`.
    public init(_ program: CompletionProgram) {
        self.program = program
    }

    /// `__NAME_context`: the context option and its value, when the line gives them.
    private var contextFunction: [String] {
        guard let option = program.contextOption?.flagName else { return [] }
        return [
            "# \(option) as given on the line, so that the program's completions read what it names.",
            "function __\(program.programName)_context",
            "    set -l words (commandline -opc)",
            "    set -l index (contains -i -- \(option) $words)",
            "    and test (count $words) -gt $index",
            "    and printf '%s\\n' \(option) $words[(math $index + 1)]",
            "end",
            "",
        ]
    }

    /// Which arguments of which commands a completion is for.
    public struct Arguments: Sendable {
        /// Which of a command's arguments.
        public enum Position: Sendable {
            /// The first argument only.
            case first
            /// Every argument after the first.
            case afterFirst
            /// Every argument.
            case any
        }

        /// The names of the commands.
        public let commands: [String]
        /// Which of their arguments.
        public let position: Position
        /// What completes them.
        public let completion: ValueCompletion

        /// `completion` for the arguments at `position` of `commands`.
        public init(_ commands: [String], _ position: Position, _ completion: ValueCompletion) {
            self.commands = commands
            self.position = position
            self.completion = completion
        }
    }

    /// The script, headed by a comment naming the command that prints it. `functions` are the program's own fish
    /// functions (lines), `optionValue` says what completes an option's value (by default,
    /// ``ValueCompletion/inferred(fromPlaceholder:)``), and `arguments` what completes commands' arguments.
    public func script(
        generator: String, functions: [String], optionValue: (OptionSpec) -> ValueCompletion?, arguments: [Arguments]
    ) -> String {
        let name = program.programName
        var lines = [
            "# fish completion for \(name), from '\(generator)'.",
            "complete -c \(name) -e",
            "complete -c \(name) -f",
            "",
            "# The words after the command that are not options or option values.",
            "function __\(name)_positionals",
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
            "            case \(program.valueOptions.spelledNames.joined(separator: " "))",
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
            "function __\(name)_argument_count",
            "    count (__\(name)_positionals)",
            "end",
            "",
        ] + contextFunction + functions
        let names = program.commands.map(\.name).joined(separator: " ")
        lines.append("")
        for command in program.commands {
            lines.append("complete -c \(name) -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d \(Self.quoted(command.abstract))")
        }
        lines.append("")
        for option in program.globalOptions { lines.append(line(option, condition: nil, optionValue)) }
        for command in program.commands {
            for option in command.options {
                lines.append(line(option, condition: "__fish_seen_subcommand_from \(command.name)", optionValue))
            }
        }
        lines.append("")
        for rule in arguments {
            var condition = "__fish_seen_subcommand_from \(rule.commands.joined(separator: " "))"
            switch rule.position {
            case .first: condition += "; and test (__\(name)_argument_count) -eq 0"
            case .afterFirst: condition += "; and test (__\(name)_argument_count) -ge 1"
            case .any: break
            }
            guard let words = words(rule.completion, names: names) else { continue }
            lines.append("complete -c \(name) -n '\(condition)' \(words)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-F` for files, or `-a '…'` with the words or a command that prints them; nil for nothing.
    private func words(_ completion: ValueCompletion, names: String) -> String? {
        switch completion {
        case .files: "-F"
        case .choices(let words): "-a '\(words.joined(separator: " "))'"
        case .commands: "-a '\(names)'"
        case .custom(let command): "-a '(\(command))'"
        case .nothing: nil
        }
    }

    /// `complete -c NAME [-n COND] -l LONG [-s S] [-r -F | -x -a …] -d HELP`.
    private func line(_ option: OptionSpec, condition: String?, _ optionValue: (OptionSpec) -> ValueCompletion?) -> String {
        var parts = ["complete -c \(program.programName)"]
        if let condition { parts.append("-n '\(condition)'") }
        parts.append("-l \(option.long)")
        if let short = option.short { parts.append("-s \(short)") }
        if let value = option.valueName {
            let completion = optionValue(option) ?? .inferred(fromPlaceholder: value)
            switch completion {
            case .files: parts.append("-r -F")
            case .nothing: parts.append("-x")
            default: parts.append("-x " + (words(completion, names: program.commands.map(\.name).joined(separator: " ")) ?? ""))
            }
        }
        parts.append("-d \(Self.quoted(Self.firstSentence(option.help)))")
        return parts.joined(separator: " ")
    }

    /// The text up to its first full stop followed by a space (dots inside `a.b` paths are not sentence ends).
    static func firstSentence(_ text: String) -> String {
        let characters = Array(text)
        for index in characters.indices where characters[index] == "." {
            if index + 1 == characters.count || characters[index + 1] == " " { return String(characters[..<index]) }
        }
        return text
    }

    /// A fish single-quoted string.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing(characters: ["\\": "\\\\", "'": "\\'"]) + "'"
    }
}
