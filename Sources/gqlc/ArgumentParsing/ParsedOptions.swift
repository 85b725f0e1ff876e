/// The options found on a command line, by long name, with every value in the order given.
struct ParsedOptions: Sendable, Equatable {
    private var storage: [String: [String]] = [:]

    /// Whether the option was given at all.
    func contains(_ option: OptionSpec) -> Bool {
        storage[option.long] != nil
    }

    /// The option's value, if it was given (non-repeatable options have at most one).
    func value(_ option: OptionSpec) -> String? {
        storage[option.long]?.last
    }

    /// Every value given for a repeatable option, in command-line order.
    func values(_ option: OptionSpec) -> [String] {
        storage[option.long] ?? []
    }

    /// Records one occurrence; a switch is recorded with an empty value.
    mutating func record(_ option: OptionSpec, value: String) {
        storage[option.long, default: []].append(value)
    }

    /// Records `value` in place of any earlier one: the last occurrence of a single-valued option wins.
    mutating func replace(_ option: OptionSpec, value: String) {
        storage[option.long] = [value]
    }
}

/// The result of scanning argv: the selected command, its options and its positional arguments.
struct ScannedCommandLine: Sendable {
    /// The command named on the line; nil when none was given.
    var command: CommandSpec?
    /// Global and command options together (their long names never collide).
    var options = ParsedOptions()
    /// Arguments after the command name that are not options or option values, in order.
    var positionals: [String] = []
}
