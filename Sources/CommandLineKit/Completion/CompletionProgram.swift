/// What a completion script is generated from: the program's name, its global options and commands, and the option
/// whose value the program's own completions need. The bash, zsh and fish scripts are made from the same value.
public struct CompletionProgram: Sendable {
    /// The program's name: the bash function is `_NAME`; in fish, the `-c` of every line and the prefix of the
    /// helper functions (`__NAME_positionals`).
    public var programName: String
    /// The options valid before and after any command.
    public var globalOptions: [OptionSpec]
    /// The commands, in the order the scripts offer them.
    public var commands: [CommandSpec]
    /// An option whose value the scripts keep, to pass on to the program when it asks it for words (a schema or
    /// configuration file; fish's `__NAME_context` prints it); nil when there is none.
    public var contextOption: OptionSpec?

    /// `programName` with these options and commands.
    public init(programName: String, globalOptions: [OptionSpec], commands: [CommandSpec], contextOption: OptionSpec? = nil) {
        self.programName = programName
        self.globalOptions = globalOptions
        self.commands = commands
        self.contextOption = contextOption
    }

    /// Every option, global or a command's, that takes a value.
    var valueOptions: [OptionSpec] { (globalOptions + commands.flatMap(\.options)).valueOptions }
}
