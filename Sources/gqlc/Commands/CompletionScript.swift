/// The text of `gqlc completion bash|zsh|fish`: CommandLineKit's scripts over the command table, told what only
/// gqlc knows: model names from `gqlc models` (with the line's --schema), names from the model on the line
/// (``CompletionCandidates``) for `--where`, `--fields`, `--include`, `--index` and the `FIELD=` arguments of create
/// and update, custom operations and their arguments, environment names, and the words of `completion`, `schema`
/// and `env`.
enum CompletionScript {
    static func render(_ shell: CompletionCommand.Shell) -> String {
        let generator = "\(CommandLineVocabulary.programName) \(CompletionCommand.spec.name) \(shell.word)"
        let program = CompletionProgram(
            programName: CommandLineVocabulary.programName, globalOptions: GlobalOptions.all, commands: CommandTable.specs,
            contextOption: GlobalOptions.schemaOption)
        let bash = BashCompletionScript(program)
        switch shell {
        case .bash: return bash.bashScript(generator: generator, optionValue: Bash.optionValue, argument: Bash.argument)
        case .zsh: return bash.zshScript(generator: generator, optionValue: Bash.optionValue, argument: Bash.argument)
        case .fish:
            return FishCompletionScript(program)
                .script(generator: generator, functions: Fish.functions, optionValue: Fish.optionValue, arguments: Fish.arguments)
        }
    }

    /// The fixed words of a command's first argument (`completion SHELL`, `schema ACTION`, `env ACTION`).
    private static func choices(ofFirstArgumentOf command: CommandSpec) -> [String]? {
        switch command.name {
        case CompletionCommand.spec.name: CompletionCommand.Shell.words
        case SchemaCommand.spec.name: SchemaInvocation.Action.words
        case EnvCommand.spec.name: EnvInvocation.Action.words
        default: nil
        }
    }

    /// bash code: `$first` is the command's first argument, `"${context[@]}"` the line's `--schema FILE`.
    private enum Bash {
        /// `gqlc models` prints the model names, then a blank line and the enums, embedded types, ….
        static let models = ValueCompletion.custom(
            "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" \"${context[@]}\" \(ModelsCommand.spec.name) 2>/dev/null "
                + "| sed '/^$/,$d')\" -- \"$cur\"))")

        static let environments = ValueCompletion.custom(
            "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" \(EnvCommand.spec.name) \(EnvInvocation.Action.list.word) "
                + "2>/dev/null | cut -d' ' -f1)\" -- \"$cur\"))")

        /// Names from the model on the line, after the last comma of `--fields a,b`; no space after a --where
        /// field (its operator follows), `=` after a field to set.
        static func candidates(_ kind: CompletionCandidates.Kind) -> ValueCompletion {
            let spacing = kind == .include || kind == .index ? "" : "; compopt -o nospace 2>/dev/null"
            let suffix = kind == .assign || kind == .change ? " -S =" : ""
            return .custom(
                "{ local head=''; [[ $cur == *,* ]] && head=${cur%,*},; COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" "
                    + "\(CompletionCandidates.commandName) \(kind.word) \"$first\" \"${context[@]}\" 2>/dev/null)\"\(suffix) "
                    + "-P \"$head\" -- \"${cur##*,}\"))\(spacing); }")
        }

        /// A custom operation's name from the `gqlc models` section with this title (`custom queries`), then its
        /// arguments as `NAME=`: `models` lists them as `  name(arg: Type, …): Result` under the section's title.
        static func customOperations(_ section: String) -> String {
            let models = "\"${COMP_WORDS[0]}\" \"${context[@]}\" \(ModelsCommand.spec.name) 2>/dev/null"
            let names = "\(models) | sed -n '/^\(section):$/,/^[^ ]/s/^  \\([_A-Za-z0-9]*\\).*/\\1/p'"
            let arguments = "\(models) | sed -n \"s/^  $first(\\(.*\\)): .*/\\1/p\" | tr ',' '\\n' "
                + "| sed -n 's/^ *\\([_A-Za-z0-9]*\\):.*/\\1=/p'"
            return "if (( positionals == 0 )); then COMPREPLY=($(compgen -W \"$(\(names))\" -- \"$cur\")); "
                + "else compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W \"$(\(arguments))\" -- \"$cur\")); fi"
        }

        static func optionValue(_ option: OptionSpec) -> ValueCompletion? {
            option == GlobalOptions.envOption ? environments : option.modelValues.map(candidates)
        }

        static func argument(_ command: CommandSpec) -> BashCompletionScript.ArgumentCompletion {
            let reply = BashCompletionScript.reply
            switch command.name {
            case EnvCommand.spec.name:
                return .custom(
                    "if (( positionals == 0 )); then \(reply(.choices(EnvInvocation.Action.words))); "
                        + "elif (( positionals == 1 )) && [[ $first != \(EnvInvocation.Action.add.word) ]]; then "
                        + "\(reply(environments)); fi")
            case CreateCommand.spec.name, UpdateCommand.spec.name:
                let kind: CompletionCandidates.Kind = command.name == CreateCommand.spec.name ? .assign : .change
                return .custom(
                    "if (( positionals == 0 )); then \(reply(models)); "
                        + "elif [[ $prev != = && $prev != : && $prev != := ]]; then \(reply(candidates(kind))); fi")
            default: break
            }
            if let words = choices(ofFirstArgumentOf: command) { return .first(.choices(words)) }
            switch command.arguments.first?.name {
            case nil: return .nothing
            case "MODEL": return .first(models)
            case "COMMAND": return .first(.commands)
            case CustomOperationCommand.name.name:
                return .custom(customOperations(command.name == MutateCommand.spec.name ? "custom mutations" : "custom queries"))
            case let placeholder?: return .first(.inferred(fromPlaceholder: placeholder))
            }
        }
    }

    /// fish: `__gqlc_context` is the line's `--schema FILE`.
    private enum Fish {
        static let functions = [
            "function __gqlc_models",
            "    gqlc (__gqlc_context) \(ModelsCommand.spec.name) 2>/dev/null | while read -l line",
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
            "    for word in (gqlc \(CompletionCandidates.commandName) $argv[1] $model (__gqlc_context) 2>/dev/null)",
            "        echo \"$head$word$argv[2]\"",
            "    end",
            "end",
        ]

        static func optionValue(_ option: OptionSpec) -> ValueCompletion? {
            if option == GlobalOptions.envOption {
                return .custom("gqlc \(EnvCommand.spec.name) \(EnvInvocation.Action.list.word) 2>/dev/null | string split -f1 \" \"")
            }
            return option.modelValues.map { kind in
                .custom("__gqlc_candidates \(kind.word)" + (kind == .fields || kind == .where ? " ''" : ""))
            }
        }

        static var arguments: [FishCompletionScript.Arguments] {
            let commands = CommandTable.specs
            let modelCommands = commands.filter { $0.arguments.first?.name == "MODEL" }.map(\.name)
            return [
                .init(modelCommands, .first, .custom("__gqlc_models")),
                .init([CreateCommand.spec.name], .afterFirst, .custom("__gqlc_candidates \(CompletionCandidates.Kind.assign.word) =")),
                .init([UpdateCommand.spec.name], .afterFirst, .custom("__gqlc_candidates \(CompletionCandidates.Kind.change.word) =")),
                .init([RawCommand.spec.name], .any, .files),
                .init([CompletionCommand.spec.name], .any, .choices(CompletionCommand.Shell.words)),
                .init([HelpCommand.spec.name], .any, .commands),
            ]
        }
    }
}
