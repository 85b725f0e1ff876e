/// The options found on a command line, by long name, with every value in the order given.
public struct ParsedOptions: Sendable, Equatable {
    private var storage: [String: [String]] = [:]

    /// No options.
    public init() {}

    /// Whether the option was given at all.
    public func contains(_ option: OptionSpec) -> Bool {
        storage[option.long] != nil
    }

    /// The option's value, if it was given (non-repeatable options have at most one).
    public func value(_ option: OptionSpec) -> String? {
        storage[option.long]?.last
    }

    /// Every value given for a repeatable option, in command-line order.
    public func values(_ option: OptionSpec) -> [String] {
        storage[option.long] ?? []
    }

    /// Records one occurrence; a switch is recorded with an empty value.
    public mutating func record(_ option: OptionSpec, value: String) {
        storage[option.long, default: []].append(value)
    }

    /// Records `value` in place of any earlier one: the last occurrence of a single-valued option wins.
    public mutating func replace(_ option: OptionSpec, value: String) {
        storage[option.long] = [value]
    }
}

/// The result of scanning argv: the selected command, its options and its positional arguments.
public struct ScannedCommandLine: Sendable {
    /// The command named on the line; nil when none was given.
    public var command: CommandSpec?
    /// Global and command options together (their long names never collide).
    public var options = ParsedOptions()
    /// Arguments after the command name that are not options or option values, in order.
    public var positionals: [String] = []

    /// Nothing scanned yet.
    public init() {}
}
