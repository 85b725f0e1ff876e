/// A scanned command line seen from one command: the helpers its definition uses to build an invocation.
struct CommandArguments: Sendable {
    let command: CommandSpec
    let options: ParsedOptions
    let positionals: [String]

    /// The positional at `index`, or a "missing MODEL" usage error naming the command's usage.
    func required(_ argument: ArgumentSpec, at index: Int) throws(UsageError) -> String {
        guard index < positionals.count else {
            throw UsageError("missing \(argument.name) for '\(command.name)'; usage: \(command.usageLine)")
        }
        return positionals[index]
    }

    /// The positional at `index`, if given.
    func optional(at index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }

    /// Rejects positionals beyond the first `count`.
    func expectNoPositionals(after count: Int) throws(UsageError) {
        guard positionals.count > count else { return }
        throw UsageError("unexpected argument '\(positionals[count])'; usage: \(command.usageLine)")
    }

    /// Rejects giving both options.
    func expectExclusive(_ first: OptionSpec, _ second: OptionSpec) throws(UsageError) {
        guard options.contains(first), options.contains(second) else { return }
        throw UsageError("options '\(first.flagName)' and '\(second.flagName)' cannot be used together")
    }
}
