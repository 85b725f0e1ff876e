/// A runnable command with its validated arguments: what the run logic switches over.
enum ParsedCommand: Equatable, Sendable {
    case get(GetInvocation)
    case list(ListInvocation)
    case create(CreateInvocation)
    case update(UpdateInvocation)
    case delete(DeleteInvocation)
    case models(ModelsInvocation)
    case raw(RawInvocation)
    case subscribe(SubscribeInvocation)
}

/// A runnable command and the global settings it runs with.
struct Invocation: Equatable, Sendable {
    let command: ParsedCommand
    let globals: GlobalOptions
}

/// What the command line asks for.
enum ParsedCommandLine: Equatable, Sendable {
    /// Print help: the overview when `topic` is nil, else that command's page.
    case help(topic: String?)
    case version
    /// Print the completion script for a shell.
    case completion(shell: CompletionCommand.Shell)
    case run(Invocation)
}

/// Every command, in the order the overview lists them.
enum CommandTable {
    /// A runnable command's declaration and decoder.
    struct Entry: Sendable {
        let spec: CommandSpec
        let decode: @Sendable (CommandArguments) throws(UsageError) -> ParsedCommand
    }

    static let runnable: [Entry] = [
        entry(GetCommand.self, ParsedCommand.get),
        entry(ListCommand.self, ParsedCommand.list),
        entry(CreateCommand.self, ParsedCommand.create),
        entry(UpdateCommand.self, ParsedCommand.update),
        entry(DeleteCommand.self, ParsedCommand.delete),
        entry(ModelsCommand.self, ParsedCommand.models),
        entry(RawCommand.self, ParsedCommand.raw),
        entry(SubscribeCommand.self, ParsedCommand.subscribe),
    ]

    /// Every command, `completion` and `help` included.
    static let specs: [CommandSpec] = runnable.map(\.spec) + [CompletionCommand.spec, HelpCommand.spec]

    /// The command named `name`.
    static func spec(named name: String) -> CommandSpec? {
        specs.first { $0.name == name }
    }

    private static func entry<Command: CommandDefinition>(
        _ command: Command.Type, _ wrap: @escaping @Sendable (Command.Invocation) -> ParsedCommand
    ) -> Entry {
        Entry(spec: command.spec) { arguments throws(UsageError) in
            wrap(try Command.invocation(from: arguments))
        }
    }
}
