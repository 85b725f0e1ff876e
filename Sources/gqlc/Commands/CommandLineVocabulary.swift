// The command-line parser is the CommandLineKit library; every file of gqlc sees it through this import.
@_exported import CommandLineKit
import GQLCore

/// What gqlc gives CommandLineKit as values: its name, the flag names other tools use, its traits of commands.
enum CommandLineVocabulary {
    /// The program's name in usage lines, hints and help.
    static let programName = "gqlc"

    /// Names other CLIs (curl, gh, the AWS CLI, kubectl) give to what gqlc calls the value's option.
    static let suggestions = FlagSuggestions(synonyms: [
        "page-token": "next-token", "starting-token": "next-token", "cursor": "next-token", "after": "next-token",
        "continuation-token": "next-token", "token": "next-token",
        "format": "output", "max-items": "limit", "first": "limit", "max": "limit",
        "colour": "color", "no-colour": "no-color", "variables": "vars", "variable": "var",
        "file": "input", "data": "input", "sort-order": "sort",
    ])

    /// Options of get, update and delete that pick a record by key: on `create` they are key field values
    /// (`--id u1` for `id=u1`, `--key id=u1` for `id=u1`).
    static let assignmentWords: Set<String> = ["id"]
    static let assignmentWrappers: Set<String> = ["key"]

    /// A scanner of gqlc's command line.
    static var scanner: ArgumentScanner {
        ArgumentScanner(
            programName: programName, globalOptions: GlobalOptions.all, commands: CommandTable.specs,
            suggestions: suggestions, assignmentWords: assignmentWords, assignmentWrappers: assignmentWrappers)
    }
}

extension CommandSpec.Trait {
    /// The command prints model records, and so accepts the record formats (`--output table|tsv|raw`).
    static let printsRecords = Self("prints-records")
}

extension CommandSpec {
    /// Whether the command prints model records (``CommandSpec/Trait/printsRecords``).
    var printsRecords: Bool { traits.contains(.printsRecords) }

    /// `gqlc NAME` followed by the first usage line: the hint that usage errors end with.
    var usageLine: String { usageLine(programName: CommandLineVocabulary.programName) }
}

extension OptionSpec {
    /// The option, with its values completed by names of `kind` from the model on the line
    /// (`gqlc __complete KIND MODEL`).
    func completing(_ kind: CompletionCandidates.Kind) -> OptionSpec {
        completing(candidates: kind.word)
    }

    /// For an option whose values are names from the model on the command line (`--where`, `--fields`): which
    /// names the completion scripts offer.
    var modelValues: CompletionCandidates.Kind? {
        completionCandidates.flatMap { CompletionCandidates.Kind.parse($0) }
    }
}

extension ValueParsing {
    /// A positive number of seconds such as `30` or `2.5`, at most a year (`Defaults.maximumTimeout`).
    static func positiveSeconds(_ text: String, for option: OptionSpec) throws(UsageError) -> Double {
        try positiveSeconds(text, for: option, atMost: Defaults.maximumTimeout, maximumName: "a year")
    }
}

extension ParsedOptions {
    /// The option's value as a positive number of seconds, at most a year; nil when not given.
    func positiveSeconds(_ option: OptionSpec) throws(UsageError) -> Double? {
        try value(option).map { text throws(UsageError) in try ValueParsing.positiveSeconds(text, for: option) }
    }
}
