/// A scanned command line seen from one command: the helpers its definition uses to build an invocation.
public struct CommandArguments: Sendable {
    /// The program's name, as usage hints spell it (`tool`).
    public let programName: String
    /// The command named on the line.
    public let command: CommandSpec
    /// The global and command options given.
    public let options: ParsedOptions
    /// The arguments after the command name, in order.
    public let positionals: [String]

    /// The arguments of `command`, run as `programName`.
    public init(programName: String, command: CommandSpec, options: ParsedOptions, positionals: [String]) {
        self.programName = programName
        self.command = command
        self.options = options
        self.positionals = positionals
    }

    /// `PROGRAM NAME` and the command's first usage line: the hint that usage errors end with.
    public var usageLine: String { command.usageLine(programName: programName) }

    /// The positional at `index`, or a "missing MODEL" usage error naming the command's usage.
    public func required(_ argument: ArgumentSpec, at index: Int) throws(UsageError) -> String {
        guard index < positionals.count else {
            throw UsageError("missing \(argument.name) for '\(command.name)'; usage: \(usageLine)")
        }
        return positionals[index]
    }

    /// The positional at `index`, if given.
    public func optional(at index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }

    /// Rejects positionals beyond the first `count`.
    public func expectNoPositionals(after count: Int) throws(UsageError) {
        guard positionals.count > count else { return }
        throw UsageError("unexpected argument '\(positionals[count])'; usage: \(usageLine)")
    }
}
