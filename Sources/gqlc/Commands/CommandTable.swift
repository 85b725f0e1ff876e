/// A runnable command with its validated arguments, and what runs it.
struct ParsedCommand: Equatable, Sendable, CustomStringConvertible {
    /// The command's name as typed (`get`).
    let name: String
    /// The command's typed invocation (a `GetInvocation` for `get`).
    let invocation: any Equatable & Sendable
    private let runner: @Sendable (RunContext) -> ExitCode
    /// What the command writes, for the guard of a protected or read-only environment; nil when it only reads.
    let writes: String?

    init<Command: CommandDefinition>(_ command: Command.Type, _ invocation: Command.Invocation) {
        self.name = command.spec.name
        self.invocation = invocation
        self.runner = { context in Command.run(invocation, in: context) }
        self.writes = Command.writes(invocation)
    }

    /// Runs the command.
    func run(in context: RunContext) -> ExitCode { runner(context) }

    /// The invocation, when it has this type.
    func invocation<Invocation>(as type: Invocation.Type) -> Invocation? { invocation as? Invocation }

    var description: String { "\(name) \(invocation)" }

    static func == (lhs: ParsedCommand, rhs: ParsedCommand) -> Bool {
        lhs.name == rhs.name && lhs.invocation.isEqual(to: rhs.invocation)
    }
}

extension Equatable {
    /// Equality with a value of any type: false when the types differ.
    fileprivate func isEqual(to other: any Equatable) -> Bool { (other as? Self) == self }
}

/// A runnable command and the global settings it runs with.
struct CommandRun: Equatable, Sendable {
    let command: ParsedCommand
    let globals: GlobalOptions
}

/// What the command line asks for.
enum ParsedCommandLine: Equatable, Sendable {
    /// Print help: the overview when `topic` is nil, else that command's page (`options`: the global options).
    case help(topic: String?)
    /// `--help-all`: the help page with every global option explained.
    case fullHelp(topic: String?)
    case version
    /// Print the man page, gqlc(1).
    case manPage
    /// Print the completion script for a shell.
    case completion(shell: CompletionCommand.Shell)
    case run(CommandRun)
}

/// Every command, in the order the overview lists them: the registry, and the only place that names them all.
enum CommandTable {
    /// A runnable command's declaration and decoder.
    struct Entry: Sendable {
        let spec: CommandSpec
        let decode: @Sendable (CommandArguments) throws(UsageError) -> ParsedCommand
    }

    static let runnable: [Entry] = [
        entry(GetCommand.self),
        entry(ListCommand.self),
        entry(CreateCommand.self),
        entry(UpdateCommand.self),
        entry(DeleteCommand.self),
        entry(SyncCommand.self),
        entry(QueryCommand.self),
        entry(MutateCommand.self),
        entry(ModelsCommand.self),
        entry(RawCommand.self),
        entry(SubscribeCommand.self),
        entry(EventsCommand.self),
        entry(MCPCommand.self),
        entry(SchemaCommand.self),
        entry(LoginCommand.self),
        entry(WhoamiCommand.self),
        entry(LogoutCommand.self),
        entry(EnvCommand.self),
        entry(SnapshotCommand.self),
        entry(RestoreCommand.self),
        entry(CopyCommand.self),
        entry(DiffCommand.self),
    ]

    /// Every command, `completion` and `help` included.
    static let specs: [CommandSpec] = runnable.map(\.spec) + [CompletionCommand.spec, VersionCommand.spec, HelpCommand.spec]

    /// The command named `name`.
    static func spec(named name: String) -> CommandSpec? {
        specs.first { $0.name == name }
    }

    private static func entry<Command: CommandDefinition>(_ command: Command.Type) -> Entry {
        Entry(spec: command.spec) { arguments throws(UsageError) in
            ParsedCommand(command, try Command.invocation(from: arguments))
        }
    }
}
