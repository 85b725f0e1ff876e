import Spelling

/// Splits argv into a command, options and positional arguments, following the usual conventions:
///
/// - `--name value` and `--name=value`; `-x value`, `-xvalue` and bundled switches (`-vh`);
/// - options may appear before or after positional arguments; global options also before the command;
/// - `--` ends the options, so every later argument is positional; a lone `-` is positional (standard input);
/// - a value that starts with `-` must be attached (`--where=-x`), except `-` itself and negative numbers.
///
/// Only syntax is checked here; what the values mean is checked when each command decodes them.
public struct ArgumentScanner: Sendable {
    /// The program's name, as hints spell it (`run 'tool help'`).
    public let programName: String
    /// The options valid before and after any command.
    public let globalOptions: [OptionSpec]
    /// The commands, one of which the first positional names.
    public let commands: [CommandSpec]
    /// What an unknown long option most likely meant.
    public let suggestions: FlagSuggestions
    /// Long names that, on a command taking `FIELD=VALUE` arguments, are field values given as options even when
    /// an option's name is close (`--id u1` for `id=u1`).
    public let assignmentWords: Set<String>
    /// Long names whose value, on such a command, is itself the `FIELD=VALUE` meant (`--key id=u1` for `id=u1`).
    public let assignmentWrappers: Set<String>

    /// What has been scanned so far; still readable after `scan` throws (the help flag uses it).
    public private(set) var result = ScannedCommandLine()

    /// A scanner for `programName`'s command line.
    public init(
        programName: String, globalOptions: [OptionSpec], commands: [CommandSpec],
        suggestions: FlagSuggestions = FlagSuggestions(), assignmentWords: Set<String> = [],
        assignmentWrappers: Set<String> = []
    ) {
        self.programName = programName
        self.globalOptions = globalOptions
        self.commands = commands
        self.suggestions = suggestions
        self.assignmentWords = assignmentWords
        self.assignmentWrappers = assignmentWrappers
    }

    /// Scans `arguments` (argv without the program name).
    public mutating func scan(_ arguments: [String]) throws(UsageError) -> ScannedCommandLine {
        result = ScannedCommandLine()
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                try takePositional(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                try takeLongOption(argument, remaining: &remaining)
            } else {
                try takeShortOptions(argument, remaining: &remaining)
            }
        }
        return result
    }

    /// Whether one of `options` is given, as a word of its own (`-h`, `--help`), before any `--`: lets a program
    /// show help for a line that fails to scan (`tool list --limt 5 --help`).
    public static func mentions(_ options: [OptionSpec], in arguments: [String]) -> Bool {
        let names = Set(options.flatMap(\.spellings))
        return arguments.prefix { $0 != "--" }.contains { names.contains($0) }
    }

    // MARK: - Positional arguments

    private mutating func takePositional(_ argument: String) throws(UsageError) {
        guard result.command == nil else {
            result.positionals.append(argument)
            return
        }
        guard let command = commands.first(where: { $0.name == argument }) else {
            let names = commands.map(\.name)
            if let match = Suggestions.closest(to: argument, in: names) {
                throw UsageError("unknown command '\(argument)'; did you mean '\(match)'?")
            }
            throw UsageError("unknown command '\(argument)'; run '\(programName) help' for the list of commands")
        }
        result.command = command
    }

    // MARK: - Options

    /// The options valid at this point: the globals, plus the command's once it is known.
    private var visibleOptions: [OptionSpec] {
        globalOptions + (result.command?.options ?? [])
    }

    private mutating func takeLongOption(_ argument: String, remaining: inout ArraySlice<String>) throws(UsageError) {
        let body = argument.dropFirst(2)
        let name: Substring
        let attached: String?
        if let equals = body.firstIndex(of: "=") {
            name = body[..<equals]
            attached = String(body[body.index(after: equals)...])
        } else {
            name = body
            attached = nil
        }
        guard let option = visibleOptions.first(where: { $0.long == name }) else {
            let value = attached ?? remaining.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
            throw unknownOption("--" + name, value: value)
        }
        if let attached {
            guard option.takesValue else {
                throw UsageError("option '\(option.flagName)' takes no value (got '\(argument)')")
            }
            try record(option, value: attached)
        } else if option.takesValue {
            try record(option, value: try nextValue(for: option, remaining: &remaining))
        } else {
            try record(option, value: "")
        }
    }

    private mutating func takeShortOptions(_ argument: String, remaining: inout ArraySlice<String>) throws(UsageError) {
        // `-limit` is a common slip for `--limit`.
        if argument.count > 2, visibleOptions.contains(where: { $0.long == argument.dropFirst() }) {
            throw UsageError("unknown option '\(argument)'; did you mean '-\(argument)'?")
        }
        var letters = argument.dropFirst()
        while let letter = letters.popFirst() {
            guard let option = visibleOptions.first(where: { $0.short == letter }) else {
                throw unknownOption("-" + String(letter), within: argument)
            }
            guard option.takesValue else {
                if letters.first == "=" {
                    throw UsageError("option '-\(letter)' takes no value (got '\(argument)')")
                }
                try record(option, value: "")
                continue
            }
            if letters.isEmpty {
                try record(option, value: try nextValue(for: option, remaining: &remaining))
            } else {
                // `-HName: value` and `-H=Name: value` both attach the value.
                if letters.first == "=" { letters = letters.dropFirst() }
                try record(option, value: String(letters))
            }
            return
        }
    }

    /// The argument after an option that needs a value.
    private func nextValue(for option: OptionSpec, remaining: inout ArraySlice<String>) throws(UsageError) -> String {
        let spelled = "(\(option.usageForm))"
        guard let next = remaining.first else {
            throw UsageError("option '\(option.flagName)' needs a value \(spelled)")
        }
        if next.hasPrefix("-"), next != "-", !Self.looksNumeric(next), !option.valueMayStartWithDash {
            throw UsageError(
                "option '\(option.flagName)' needs a value \(spelled); "
                    + "write '\(option.flagName)=\(next)' if '\(next)' is the value")
        }
        remaining.removeFirst()
        return next
    }

    /// Records one occurrence. A single-valued option given again takes the later value, as curl, gh and the AWS
    /// CLI do, so that `alias t='tool --endpoint X'` can be run as `t --endpoint Y`.
    private mutating func record(_ option: OptionSpec, value: String) throws(UsageError) {
        if let synonym = option.synonym, let target = visibleOptions.first(where: { $0.long == synonym.long }) {
            return try record(target, value: synonym.value)
        }
        if !option.takesValue, result.options.contains(option) { return }
        if option.takesValue, !option.isRepeatable {
            result.options.replace(option, value: value)
        } else {
            result.options.record(option, value: value)
        }
    }

    /// The error for an option that is not valid here, with the option it most likely meant; on a command that
    /// takes FIELD=VALUE arguments, `--name x` and `--id u1` are field values given as options (`name=x`).
    private func unknownOption(_ name: String, within argument: String? = nil, value: String? = nil) -> UsageError {
        var subject = "'\(name)'"
        if let argument, argument != name { subject += " (in '\(argument)')" }
        let isLong = name.hasPrefix("--")
        let typed = String(name.dropFirst(2))
        guard let command = result.command else {
            // `--format` is another tool's `--output` before it is `schema print`'s own.
            if isLong, let synonym = suggestions.synonyms[typed.lowercased()],
               globalOptions.contains(where: { $0.long == synonym }) {
                return UsageError("unknown option \(subject); did you mean '--\(synonym)'?")
            }
            if let owner = commands.first(where: { $0.options.contains { $0.flagName == name } }),
               let option = owner.option(named: typed) {
                return UsageError(
                    "option '\(name)' belongs after the command, as in '\(programName) \(owner.name) \(option.usageForm)'")
            }
            if isLong, let hint = suggestions.didYouMean(typed, in: globalOptions.map(\.long)) {
                return UsageError("unknown option \(subject)\(hint)")
            }
            return UsageError("unknown option \(subject); run '\(programName) help' for the options")
        }
        let candidates = visibleOptions.map(\.long)
        if isLong, let assignment = command.assignmentPlaceholder, Self.isIdentifier(typed),
           suggestions.matches(for: typed, in: candidates).isEmpty || assignmentWords.contains(typed)
            || assignmentWrappers.contains(typed) {
            let isAssignment = assignmentWrappers.contains(typed) && value?.contains("=") == true
            let written = isAssignment ? value ?? "" : "\(typed)=\(value ?? "VALUE")"
            return UsageError(
                "unknown option \(subject) for '\(command.name)'; give \(assignment.lowercased())s as \(assignment)=VALUE: "
                    + "'\(written)'")
        }
        if isLong, let hint = suggestions.didYouMean(typed, in: candidates) {
            return UsageError("unknown option \(subject)\(hint)")
        }
        return UsageError(
            "unknown option \(subject) for '\(command.name)'; run '\(programName) \(command.name) --help' for its options")
    }

    /// A name as fields are named: a letter or `_`, then letters, digits and `_` (ASCII).
    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII else {
            return false
        }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// `-5`, `-0.5`: values that start with a dash but are clearly numbers, not options.
    private static func looksNumeric(_ text: String) -> Bool {
        let digits = text.dropFirst()
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }
}
