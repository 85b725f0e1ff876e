import GQLCore

/// `gqlc completion bash|zsh`: prints a shell completion script.
enum CompletionCommand {
    /// The shells a script can be written for.
    enum Shell: String, CaseIterable, Sendable {
        case bash
        case zsh
    }

    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a completion script for bash or zsh.",
        synopsis: ["bash|zsh"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    The script completes commands, options, the values of --output, file names where \
                    a file is expected, and model names, which it asks 'gqlc models' for (with the \
                    --schema given on the line being completed, if any). Load it from your shell's \
                    start-up file:
                    """),
                .verbatim([
                    "  source <(gqlc completion bash)    # in ~/.bashrc",
                    "  source <(gqlc completion zsh)     # in ~/.zshrc, after compinit",
                ]),
            ])
        ],
        arguments: [ArgumentSpec(name: "SHELL", help: "bash or zsh.")],
        examples: [
            Example("The bash script, to load with source <(gqlc completion bash)", "gqlc completion bash"),
            Example("The zsh script, which runs the bash one through bashcompinit", "gqlc completion zsh"),
        ])

    /// The shell named on the command line; a missing or unknown one is an error with a suggestion.
    static func shell(from arguments: CommandArguments) throws(UsageError) -> Shell {
        try arguments.expectNoPositionals(after: 1)
        let names = Shell.allCases.map(\.rawValue)
        guard let name = arguments.optional(at: 0) else {
            throw UsageError("'completion' needs a shell: \(names.joined(separator: " or ")); usage: \(spec.usageLine)")
        }
        guard let shell = Shell(rawValue: name) else {
            let suggestion = Suggestions.didYouMean(name, in: names)
            throw UsageError("unknown shell '\(name)'" + (suggestion.isEmpty ? "; expected bash or zsh" : suggestion))
        }
        return shell
    }
}
