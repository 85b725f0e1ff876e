import GQLCore

/// `gqlc completion bash|zsh`: prints a shell completion script.
enum CompletionCommand {
    /// The shells a script can be written for.
    enum Shell: String, Choice {
        case bash
        case zsh
        case fish
    }

    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a completion script for \(Shell.alternatives).",
        synopsis: [Shell.placeholder],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    The script completes commands, options, the values of --output, file names where \
                    a file is expected, and model names, which it asks 'gqlc models' for (with the \
                    --schema given on the line being completed, if any); and, from that model, field \
                    names after 'create MODEL' and 'update MODEL', in --where, --if and --fields \
                    (after the last comma), association paths for --include and index names for \
                    --index. Load it from your shell's start-up file:
                    """),
                .verbatim([
                    "  source <(gqlc completion bash)    # in ~/.bashrc",
                    "  source <(gqlc completion zsh)     # in ~/.zshrc, after compinit",
                    "  gqlc completion fish | source     # in ~/.config/fish/config.fish",
                ]),
            ])
        ],
        arguments: [ArgumentSpec(name: "SHELL", help: "\(Shell.alternatives).")],
        examples: [
            Example("The bash script, to load with source <(gqlc completion bash)", "gqlc completion bash"),
            Example("The zsh script, which runs the bash one through bashcompinit", "gqlc completion zsh"),
            Example("The fish script, to save as ~/.config/fish/completions/gqlc.fish", "gqlc completion fish"),
        ])

    /// The shell named on the command line; a missing or unknown one is an error with a suggestion.
    static func shell(from arguments: CommandArguments) throws(UsageError) -> Shell {
        try arguments.expectNoPositionals(after: 1)
        return try Shell.positional(arguments, at: 0, naming: "a shell")
    }
}
