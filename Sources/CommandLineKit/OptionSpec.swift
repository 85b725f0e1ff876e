/// The declaration of one command-line option: its names, whether it takes a value, and its help.
///
/// ```swift
/// OptionSpec(long: "limit", value: "N", help: "Print at most N items.")
/// OptionSpec(long: "verbose", short: "v", help: "Trace requests on standard error.")
/// ```
public struct OptionSpec: Sendable, Hashable {
    /// Whether the option is a switch or takes a value.
    public enum Kind: Sendable, Hashable {
        /// A switch such as `--dry-run`; giving it a value (`--dry-run=yes`) is a usage error.
        case flag
        /// An option that takes one value, shown in help as `valueName` (`--limit N`).
        case value(valueName: String)
    }

    /// The long name without dashes (`"limit"` for `--limit`); also the key of parsed values.
    public let long: String
    /// The one-letter name (`"H"` for `-H`), if any.
    public let short: Character?
    /// A switch, or an option that takes a value.
    public let kind: Kind
    /// Whether the option may be given more than once (each value is kept, in order).
    public let isRepeatable: Bool
    /// One or two sentences for the help page.
    public let help: String
    /// The default as the help page shows it, when there is one.
    public let defaultDescription: String?
    /// The environment variable that supplies the value when the option is absent.
    public let environmentVariable: String?
    /// Whether the separate argument after the option is its value even when it starts with `-`
    /// (opaque values such as base64url page tokens, which may begin with a dash).
    public let valueMayStartWithDash: Bool
    /// For a switch that is another spelling of an option's value (`--no-color` for `--color never`): that
    /// option's long name and the value the switch gives it. The scanner records the switch as that option, so
    /// the later of the two wins.
    public private(set) var synonym: Synonym?
    /// For an option whose values the program itself lists at completion time: the word naming that list,
    /// which the program's completion scripts pass back to it (see ``completing(candidates:)``).
    public private(set) var completionCandidates: String?

    /// The option and value a synonym switch stands for.
    public struct Synonym: Sendable, Hashable {
        /// The long name of the option the switch sets.
        public let long: String
        /// The value it gives that option.
        public let value: String
    }

    /// A switch; `environmentVariable` may turn it on (`1`, `true`, `yes`).
    public init(long: String, short: Character? = nil, environment environmentVariable: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.kind = .flag
        self.isRepeatable = false
        self.help = help
        self.defaultDescription = nil
        self.environmentVariable = environmentVariable
        self.valueMayStartWithDash = false
    }

    /// A switch that means `--OPTION VALUE` (`--no-color` for `--color never`).
    public init(long: String, means option: OptionSpec, _ value: String, help: String) {
        self.init(long: long, help: help)
        synonym = Synonym(long: option.long, value: value)
    }

    /// An option that takes a value.
    public init(
        long: String, short: Character? = nil, value valueName: String, repeatable: Bool = false,
        default defaultDescription: String? = nil, environment environmentVariable: String? = nil,
        valueMayStartWithDash: Bool = false, help: String
    ) {
        self.long = long
        self.short = short
        self.kind = .value(valueName: valueName)
        self.isRepeatable = repeatable
        self.help = help
        self.defaultDescription = defaultDescription
        self.environmentVariable = environmentVariable
        self.valueMayStartWithDash = valueMayStartWithDash
    }

    /// The option, with its values completed by the words the program lists for `candidates` (the program
    /// decides what the word means and how its completion scripts ask for them).
    public func completing(candidates: String) -> OptionSpec {
        var option = self
        option.completionCandidates = candidates
        return option
    }

    /// `--limit`, the name users type and error messages quote.
    public var flagName: String { "--" + long }

    /// Every name as typed: `--header`, then `-H` when there is a short name.
    public var spellings: [String] {
        [flagName] + (short.map { ["-\($0)"] } ?? [])
    }

    /// Whether the option takes a value.
    public var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }

    /// The value placeholder (`N`), or nil for a switch.
    public var valueName: String? {
        if case .value(let name) = kind { return name }
        return nil
    }

    /// `--limit N`, as usage messages spell the option.
    public var usageForm: String {
        valueName.map { "\(flagName) \($0)" } ?? flagName
    }
}

/// The declaration of a positional argument, for help pages and "missing argument" messages.
public struct ArgumentSpec: Sendable, Hashable {
    /// The placeholder shown in help (`MODEL`, `FIELD=VALUE`).
    public let name: String
    /// One or two sentences for the help page.
    public let help: String

    /// An argument shown as `name`.
    public init(name: String, help: String) {
        self.name = name
        self.help = help
    }
}
