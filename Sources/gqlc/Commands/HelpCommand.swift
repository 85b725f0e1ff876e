import GQLCore

/// `gqlc help [COMMAND]`: the overview, or one command's help page.
enum HelpCommand {
    static let man = OptionSpec(
        long: "man", help: "Print every help page as one man page, gqlc(1), in roff (what 'make install' installs).")

    static let spec = CommandSpec(
        name: "help",
        abstract: "Show the overview, COMMAND's help page, or the global options.",
        synopsis: ["[COMMAND | options]", "--man"],
        arguments: [ArgumentSpec(
            name: "COMMAND", help: "The command to explain; 'options' explains every global option; the overview when omitted.")],
        options: [man],
        examples: [
            Example("The overview: commands, global options, exit status", "gqlc help"),
            Example("Options, where-expressions and examples of list", "gqlc help list"),
            Example("Every global option explained, and where gqlc finds its settings", "gqlc help options"),
            Example("Read the manual page without installing it", "gqlc help --man | man -l -"),
        ])
}
