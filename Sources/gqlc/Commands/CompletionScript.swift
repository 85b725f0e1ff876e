/// The text of `gqlc completion bash|zsh`, generated from the command table so that it never drifts from
/// the parser: every command, its options and the global ones, file names where a value or argument is a
/// file, fixed choices (`--output json|ndjson|table|tsv|raw`), and model names from `gqlc models`.
///
/// zsh runs the bash function through `bashcompinit`, so both shells share one script body.
enum CompletionScript {
    static func render(_ shell: CompletionCommand.Shell) -> String {
        switch shell {
        case .bash:
            return "# bash completion for gqlc, from 'gqlc completion bash'.\n" + bashFunction
        case .zsh:
            // Sourced after compinit, or autoloaded as `_gqlc` from a directory in $fpath (as `make install`
            // installs it): then its first run is a completion widget's, which it answers too.
            return """
                #compdef gqlc
                # zsh completion for gqlc, from 'gqlc completion zsh'; source it after compinit, or save it as _gqlc
                # in a directory of $fpath.
                autoload -U +X bashcompinit && bashcompinit

                """ + bashFunction + "if (( ${+compstate} )); then _bash_complete -F _gqlc; fi\n"
        case .fish:
            return FishCompletionScript.render()
        }
    }

    /// How the script completes the value of an option or a positional argument.
    enum ValueCompletion: Equatable {
        case files
        case choices([String])
        case models
        case commands
        /// Words for the model on the line, from `gqlc __complete KIND MODEL`.
        case candidates(CompletionCandidates.Kind)
        /// A custom operation's name from the `gqlc models` section with this title (`custom queries`),
        /// then its arguments as `NAME=`.
        case customOperations(String)
        /// The names of the config file's environments, from `gqlc env list`.
        case environments
        case nothing
    }

    /// What completes the value of an option, judged by its value placeholder (`FILE`, `json|ndjson`).
    static func completion(ofValue valueName: String) -> ValueCompletion {
        let alternatives = valueName.split(separator: "|").map(String.init)
        if alternatives.contains("FILE") { return .files }
        if alternatives.count > 1, alternatives.allSatisfy({ $0.allSatisfy(\.isLowercase) }) { return .choices(alternatives) }
        return .nothing
    }

    /// What completes a command's first argument, judged by its placeholder (`MODEL`, `FILE|-`).
    static func completion(ofArgument argument: ArgumentSpec?, command: String) -> ValueCompletion {
        guard let argument else { return .nothing }
        if command == CompletionCommand.spec.name { return .choices(CompletionCommand.Shell.words) }
        if command == SchemaCommand.spec.name { return .choices(SchemaInvocation.Action.words) }
        if command == EnvCommand.spec.name { return .choices(EnvInvocation.Action.words) }
        switch argument.name {
        case "MODEL": return .models
        case "COMMAND": return .commands
        case CustomOperationCommand.name.name:
            return .customOperations(command == MutateCommand.spec.name ? "custom mutations" : "custom queries")
        default: return completion(ofValue: argument.name)
        }
    }

    // MARK: - The bash function

    private static var commands: [CommandSpec] { CommandTable.specs }

    private static var valueOptions: [OptionSpec] {
        var seen = Set<String>()
        return (GlobalOptions.all + commands.flatMap(\.options)).filter { option in
            option.valueName != nil && seen.insert(option.long).inserted
        }
    }

    private static func names(_ option: OptionSpec) -> [String] {
        [option.flagName] + (option.short.map { ["-\($0)"] } ?? [])
    }

    private static func flags(_ options: [OptionSpec]) -> String {
        options.flatMap(names).joined(separator: " ")
    }

    /// The shell command that fills `COMPREPLY` for one kind of completion of the word `$cur`.
    private static func reply(_ completion: ValueCompletion) -> String {
        switch completion {
        case .files: return "{ COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null; }"
        case .choices(let words): return "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))"
        // `gqlc models` prints the model names, then a blank line and the enums, embedded types, ….
        case .models: return "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" \"${schema[@]}\" models 2>/dev/null | sed '/^$/,$d')\" -- \"$cur\"))"
        case .commands: return "COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))"
        case .candidates(let kind):
            // After the last comma of `--fields a,b`; no space after a --where field (its operator follows).
            let spacing = kind == .include || kind == .index ? "" : "; compopt -o nospace 2>/dev/null"
            let suffix = kind == .assign || kind == .change ? " -S =" : ""
            return "{ local head=''; [[ $cur == *,* ]] && head=${cur%,*},; COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" "
                + "\(CompletionCandidates.commandName) \(kind.word) \"$model\" \"${schema[@]}\" 2>/dev/null)\"\(suffix) -P \"$head\" -- "
                + "\"${cur##*,}\"))\(spacing); }"
        // `models` lists them as `  name(arg: Type, …): Result` under their section's title.
        case .customOperations(let section):
            let models = "\"${COMP_WORDS[0]}\" \"${schema[@]}\" models 2>/dev/null"
            let names = "\(models) | sed -n '/^\(section):$/,/^[^ ]/s/^  \\([_A-Za-z0-9]*\\).*/\\1/p'"
            let arguments = "\(models) | sed -n \"s/^  $model(\\(.*\\)): .*/\\1/p\" | tr ',' '\\n' | sed -n 's/^ *\\([_A-Za-z0-9]*\\):.*/\\1=/p'"
            return "if (( positionals == 0 )); then COMPREPLY=($(compgen -W \"$(\(names))\" -- \"$cur\")); "
                + "else compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W \"$(\(arguments))\" -- \"$cur\")); fi"
        case .environments:
            return "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" env list 2>/dev/null | cut -d' ' -f1)\" -- \"$cur\"))"
        case .nothing: return "COMPREPLY=()"
        }
    }

    /// Patterns grouped by the completion they share, in first-seen order: one `case` arm each.
    private static func grouped(_ entries: [(patterns: [String], completion: ValueCompletion)])
        -> [(patterns: String, completion: ValueCompletion)]
    {
        var groups: [(patterns: [String], completion: ValueCompletion)] = []
        for entry in entries {
            if let index = groups.firstIndex(where: { $0.completion == entry.completion }) {
                groups[index].patterns += entry.patterns
            } else {
                groups.append(entry)
            }
        }
        return groups.map { ($0.patterns.joined(separator: "|"), $0.completion) }
    }

    /// The arms that complete option values: files, fixed choices, or nothing (a free value).
    private static var optionValueArms: [String] {
        grouped(valueOptions.map { option in
            let completion: ValueCompletion = option == GlobalOptions.envOption ? .environments
                : option.modelValues.map { .candidates($0) } ?? self.completion(ofValue: option.valueName ?? "")
            return (names(option), completion)
        })
            .map { "        \($0.patterns)) \(reply($0.completion)); return ;;" }
    }

    private static var commandOptionArms: [String] {
        commands.filter { !$0.options.isEmpty }.map { "            \($0.name)) options+=' \(flags($0.options))' ;;" }
    }

    /// The arms that complete a command's first argument, and the `FIELD=` arguments of create and update.
    private static var argumentArms: [String] {
        let assignments: [(String, CompletionCandidates.Kind)] = [(CreateCommand.spec.name, .assign), (UpdateCommand.spec.name, .change)]
        let environmentNames = "        \(EnvCommand.spec.name)) if (( positionals == 0 )); then "
            + "\(reply(.choices(EnvInvocation.Action.words))); elif (( positionals == 1 )) && [[ $model != add ]]; then "
            + "\(reply(.environments)); fi ;;"
        return [environmentNames] + assignments.map { name, kind in
            "        \(name)) if (( positionals == 0 )); then \(reply(.models)); "
                + "elif [[ $prev != = && $prev != : && $prev != := ]]; then \(reply(.candidates(kind))); fi ;;"
        } + grouped(commands.filter { $0.name != EnvCommand.spec.name }.map {
            ([$0.name], completion(ofArgument: $0.arguments.first, command: $0.name))
        })
            .filter { $0.completion != .nothing }
            .map { arm in
                if case .customOperations = arm.completion { return "        \(arm.patterns)) \(reply(arm.completion)) ;;" }
                return "        \(arm.patterns)) (( positionals == 0 )) && \(reply(arm.completion)) ;;"
            }
    }

    private static var bashFunction: String {
        let valuePatterns = valueOptions.flatMap(names).joined(separator: "|")
        let lines: [String] = [
            "_gqlc() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local commands='\(commands.map(\.name).joined(separator: " "))'",
            "    local command='' model='' positionals=0 i=1 word  # model: the first argument, a model or an operation",
            "    local -a schema=()",
            "    # Find the command and count its arguments; option values are skipped, and --schema is kept",
            "    # so that model names come from the schema the line names. bash splits --opt=value at '='.",
            "    while (( i < COMP_CWORD )); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ ${COMP_WORDS[i+1]} == = ]]; then",
            "            [[ $word == --schema ]] && (( i + 2 < COMP_CWORD )) && schema=(--schema \"${COMP_WORDS[i+2]/#\\~/$HOME}\")",
            "            (( i += 3 )); continue",
            "        fi",
            "        case $word in",
            "            \(valuePatterns))",
            "                [[ $word == --schema ]] && (( i + 1 < COMP_CWORD )) && schema=(--schema \"${COMP_WORDS[i+1]/#\\~/$HOME}\")",
            "                (( i += 2 )); continue ;;",
            "            =|:|:=) (( i += 2 )); continue ;;  # the rest of a NAME=VALUE word that bash split",
            "            -*) ;;",
            "            *) if [[ -z $command ]]; then command=$word; else (( positionals++ == 0 )) && model=$word; fi ;;",
            "        esac",
            "        (( i++ ))",
            "    done",
            "    local option=$prev",
            "    if [[ $prev == = ]] && (( COMP_CWORD >= 2 )); then option=${COMP_WORDS[COMP_CWORD-2]}; fi",
            "    [[ $cur == = ]] && { option=$prev; cur=''; }",
            "    case $option in",
        ] + optionValueArms + [
            "    esac",
            "    if [[ $cur == -* ]]; then",
            "        local options='\(flags(GlobalOptions.all))'",
            "        case $command in",
        ] + commandOptionArms + [
            "        esac",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    if [[ -z $command ]]; then",
            "        \(reply(.commands))",
            "        return",
            "    fi",
            "    case $command in",
        ] + argumentArms + [
            "    esac",
            "}",
            "complete -F _gqlc gqlc",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
