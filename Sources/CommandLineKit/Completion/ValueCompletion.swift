/// What a completion script offers for an option's value or a command's argument.
public enum ValueCompletion: Sendable, Equatable {
    /// File names.
    case files
    /// These words.
    case choices([String])
    /// The program's command names.
    case commands
    /// Nothing: a free value.
    case nothing
    /// Shell code the program supplies: for bash, a command that fills `COMPREPLY`; for fish, a command whose
    /// output lines are the words. Each script generator documents the variables the code may read.
    case custom(String)

    /// What completes a value, judged by its placeholder: `FILE` (or `FILE|-`) is a file name, lower-case
    /// alternatives (`json|ndjson`) are choices, anything else is free.
    public static func inferred(fromPlaceholder placeholder: String) -> ValueCompletion {
        let alternatives = placeholder.split(separator: "|").map(String.init)
        if alternatives.contains("FILE") { return .files }
        if alternatives.count > 1, alternatives.allSatisfy({ $0.allSatisfy(\.isLowercase) }) { return .choices(alternatives) }
        return .nothing
    }
}

extension Array where Element == OptionSpec {
    /// The options that take a value, each long name once, in order.
    var valueOptions: [OptionSpec] {
        var seen = Set<String>()
        return filter { $0.valueName != nil && seen.insert($0.long).inserted }
    }

    /// Every name of the options as typed: `--header -H --limit`.
    var spelledNames: [String] {
        flatMap(\.spellings)
    }
}
