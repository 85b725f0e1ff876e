import GQLCore

/// `gqlc help [COMMAND]`: the overview, or one command's help page.
enum HelpCommand {
    static let man = OptionSpec(
        long: "man", help: "Print every help page as one man page, gqlc(1), in roff (what 'make install' installs).")

    static let spec = CommandSpec(
        name: "help",
        abstract: "Show the overview, or the help page of COMMAND.",
        synopsis: ["[COMMAND]", "--man"],
        arguments: [ArgumentSpec(name: "COMMAND", help: "The command to explain; the overview when omitted.")],
        options: [man],
        examples: [
            Example("The overview: commands, global options, exit status", "gqlc help"),
            Example("Options, where-expressions and examples of list", "gqlc help list"),
            Example("Read the manual page without installing it", "gqlc help --man | man -l -"),
        ])

    /// The command to explain, nil for the overview; an unknown name is an error with a suggestion.
    static func topic(from arguments: CommandArguments, commands: [String]) throws(UsageError) -> String? {
        try arguments.expectNoPositionals(after: 1)
        guard let name = arguments.optional(at: 0) else { return nil }
        guard commands.contains(name) else {
            let suggestion = Suggestions.didYouMean(name, in: commands)
            let hint = suggestion.isEmpty ? "; run 'gqlc help' for the list of commands" : suggestion
            throw UsageError("unknown command '\(name)'\(hint)")
        }
        return name
    }
}
