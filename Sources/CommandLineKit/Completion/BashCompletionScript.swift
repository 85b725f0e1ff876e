/// A bash completion function for a program with commands, generated from its specs so that it never drifts from
/// the parser: the commands, each command's options and the global ones, and the values of options and arguments
/// as the program says (files, fixed words, or its own shell code). zsh runs the same function through
/// `bashcompinit` (``zshScript(generator:optionValue:argument:)``).
///
/// Custom completions (``ValueCompletion/custom(_:)``) are bash code that fills `COMPREPLY`; they may read `$cur`
/// (the word being completed), `$prev`, `$command`, `$first` (the command's first argument, once given),
/// `$positionals` (how many arguments precede the word) and `"${context[@]}"` (the context option as given on the
/// line, to pass on to the program: `--config FILE`); `"${COMP_WORDS[0]}"` runs the program itself.
public struct BashCompletionScript: Sendable {
    /// The program it completes.
    public var program: CompletionProgram

    /// The bash script of `program`.
    public init(_ program: CompletionProgram) {
        self.program = program
    }

    /// What completes a command's arguments.
    public enum ArgumentCompletion: Sendable, Equatable {
        /// The first argument only.
        case first(ValueCompletion)
        /// The program's own bash code for every argument (it reads `$positionals` to tell them apart).
        case custom(String)
        /// Nothing.
        case nothing
    }

    /// The bash script, headed by a comment naming the command that prints it (`tool completion bash`).
    /// `optionValue` says what completes an option's value (by default, ``ValueCompletion/inferred(fromPlaceholder:)``);
    /// `argument` what completes a command's arguments.
    public func bashScript(
        generator: String, optionValue: (OptionSpec) -> ValueCompletion?, argument: (CommandSpec) -> ArgumentCompletion
    ) -> String {
        "# bash completion for \(program.programName), from '\(generator)'.\n" + function(optionValue: optionValue, argument: argument)
    }

    /// The zsh script: the bash function run through `bashcompinit`. Sourced after `compinit`, or autoloaded as
    /// `_NAME` from a directory in `$fpath`: then its first run is a completion widget's, which it answers too.
    public func zshScript(
        generator: String, optionValue: (OptionSpec) -> ValueCompletion?, argument: (CommandSpec) -> ArgumentCompletion
    ) -> String {
        let name = program.programName
        return """
            #compdef \(name)
            # zsh completion for \(name), from '\(generator)'; source it after compinit, or save it as _\(name)
            # in a directory of $fpath.
            autoload -U +X bashcompinit && bashcompinit

            """ + function(optionValue: optionValue, argument: argument)
            + "if (( ${+compstate} )); then _bash_complete -F _\(name); fi\n"
    }

    /// The bash command that fills `COMPREPLY` for one kind of completion of the word `$cur`.
    public static func reply(_ completion: ValueCompletion) -> String {
        switch completion {
        case .files: "{ COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null; }"
        case .choices(let words): "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))"
        case .commands: "COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))"
        case .custom(let code): code
        case .nothing: "COMPREPLY=()"
        }
    }

    // MARK: - The function

    /// Patterns grouped by the completion they share, in first-seen order: one `case` arm each.
    private static func grouped<Completion: Equatable>(_ entries: [(patterns: [String], completion: Completion)])
        -> [(patterns: String, completion: Completion)]
    {
        var groups: [(patterns: [String], completion: Completion)] = []
        for entry in entries {
            if let index = groups.firstIndex(where: { $0.completion == entry.completion }) {
                groups[index].patterns += entry.patterns
            } else {
                groups.append(entry)
            }
        }
        return groups.map { ($0.patterns.joined(separator: "|"), $0.completion) }
    }

    /// The arms that complete option values: files, fixed choices, the program's own, or nothing (a free value).
    private func optionValueArms(_ optionValue: (OptionSpec) -> ValueCompletion?) -> [String] {
        Self.grouped(program.valueOptions.map { option in
            ([option].spelledNames, optionValue(option) ?? .inferred(fromPlaceholder: option.valueName ?? ""))
        })
            .map { "        \($0.patterns)) \(Self.reply($0.completion)); return ;;" }
    }

    private var commandOptionArms: [String] {
        program.commands.filter { !$0.options.isEmpty }.map { "            \($0.name)) options+=' \($0.options.spelledNames.joined(separator: " "))' ;;" }
    }

    /// The arms that complete commands' arguments.
    private func argumentArms(_ argument: (CommandSpec) -> ArgumentCompletion) -> [String] {
        Self.grouped(program.commands.map { ([$0.name], argument($0)) }).compactMap { arm in
            switch arm.completion {
            case .nothing, .first(.nothing): nil
            case .first(let completion): "        \(arm.patterns)) (( positionals == 0 )) && \(Self.reply(completion)) ;;"
            case .custom(let code): "        \(arm.patterns)) \(code) ;;"
            }
        }
    }

    /// The context option's value kept from the line (`$1` is the index of the value's word).
    private func keepContext(at index: String) -> [String] {
        guard let option = program.contextOption else { return [] }
        return [
            "[[ $word == \(option.flagName) ]] && (( \(index) < COMP_CWORD )) && context=(\(option.flagName) \"${COMP_WORDS[\(index)]/#\\~/$HOME}\")"
        ]
    }

    private func function(optionValue: (OptionSpec) -> ValueCompletion?, argument: (CommandSpec) -> ArgumentCompletion) -> String {
        let valuePatterns = program.valueOptions.spelledNames.joined(separator: "|")
        let context = program.contextOption.map { " and \($0.flagName) is kept" } ?? ""
        let lines: [String] = [
            "_\(program.programName)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local commands='\(program.commands.map(\.name).joined(separator: " "))'",
            "    local command='' first='' positionals=0 i=1 word  # first: the command's first argument",
            "    local -a context=()",
            "    # Find the command and count its arguments; option values are skipped\(context).",
            "    # bash splits --opt=value at '='.",
            "    while (( i < COMP_CWORD )); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ ${COMP_WORDS[i+1]} == = ]]; then",
        ] + keepContext(at: "i + 2").map { "            " + $0 } + [
            "            (( i += 3 )); continue",
            "        fi",
            "        case $word in",
            "            \(valuePatterns))",
        ] + keepContext(at: "i + 1").map { "                " + $0 } + [
            "                (( i += 2 )); continue ;;",
            "            =|:|:=) (( i += 2 )); continue ;;  # the rest of a NAME=VALUE word that bash split",
            "            -*) ;;",
            "            *) if [[ -z $command ]]; then command=$word; else (( positionals++ == 0 )) && first=$word; fi ;;",
            "        esac",
            "        (( i++ ))",
            "    done",
            "    local option=$prev",
            "    if [[ $prev == = ]] && (( COMP_CWORD >= 2 )); then option=${COMP_WORDS[COMP_CWORD-2]}; fi",
            "    [[ $cur == = ]] && { option=$prev; cur=''; }",
            "    case $option in",
        ] + optionValueArms(optionValue) + [
            "    esac",
            "    if [[ $cur == -* ]]; then",
            "        local options='\(program.globalOptions.spelledNames.joined(separator: " "))'",
            "        case $command in",
        ] + commandOptionArms + [
            "        esac",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    if [[ -z $command ]]; then",
            "        \(Self.reply(.commands))",
            "        return",
            "    fi",
            "    case $command in",
        ] + argumentArms(argument) + [
            "    esac",
            "}",
            "complete -F _\(program.programName) \(program.programName)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
