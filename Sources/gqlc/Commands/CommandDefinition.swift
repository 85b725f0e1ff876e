/// A command: its declaration (`spec`), the decoding of its scanned arguments into a typed invocation, and
/// what runs that invocation.
///
/// Each command lives in its own file (with its `run` beside its runner); `CommandTable.runnable` lists them.
/// Adding a command is that file, its runner, and one line in the table.
protocol CommandDefinition: SendableMetatype {
    /// The validated request the command's run logic consumes.
    associatedtype Invocation: Equatable & Sendable

    /// Names, synopsis, options, help text and examples.
    static var spec: CommandSpec { get }

    /// Checks the command line's syntax and builds the invocation (schema checks come later).
    static func invocation(from arguments: CommandArguments) throws(UsageError) -> Invocation

    /// Carries out the invocation: builds the request, talks to the server, prints, picks the exit code.
    static func run(_ invocation: Invocation, in context: RunContext) -> ExitCode

    /// What the invocation writes (`create Post records`), which a protected or read-only environment guards; nil
    /// for commands that only read.
    static func writes(_ invocation: Invocation) -> String?
}

extension CommandDefinition {
    static func writes(_ invocation: Invocation) -> String? { nil }
}
