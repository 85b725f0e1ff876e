import Spelling

/// A fixed set of words a value may be (`asc|desc`, shells), from a `CaseIterable` enum, so that
/// parsing, errors, help and completion read the same list.
public protocol Choice: CaseIterable, Sendable {
    /// The word as typed on the command line.
    var word: String { get }
}

extension Choice {
    /// Every word, in declaration order.
    public static var words: [String] { allCases.map(\.word) }

    /// The value placeholder for help and completion: `asc|desc`.
    public static var placeholder: String { words.joined(separator: "|") }

    /// The words for an error message: `asc or desc`, `a, b or c`.
    public static var alternatives: String {
        let words = self.words
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The positional at `index` of a command taking one of these words (`completion SHELL`, `schema ACTION`):
    /// a missing or unknown word is a usage error naming the alternatives, with a suggestion where one is close.
    public static func positional(_ arguments: CommandArguments, at index: Int, naming kind: String) throws(UsageError) -> Self {
        guard let text = arguments.optional(at: index) else {
            throw UsageError("'\(arguments.command.name)' needs \(kind): \(alternatives); usage: \(arguments.usageLine)")
        }
        guard let value = parse(text) else {
            let suggestion = Suggestions.didYouMean(text, in: words)
            let what = kind.split(separator: " ").last.map(String.init) ?? kind
            throw UsageError("unknown \(what) '\(text)'" + (suggestion.isEmpty ? "; expected \(alternatives)" : suggestion))
        }
        return value
    }

    /// The case whose word is `text` (in any case when `ignoringCase`).
    public static func parse(_ text: String, ignoringCase: Bool = false) -> Self? {
        guard ignoringCase else { return allCases.first { $0.word == text } }
        let lowered = text.lowercased()
        return allCases.first { $0.word.lowercased() == lowered }
    }

    /// The case whose word `text`, the value of `option`, is; else the usage error naming the alternatives.
    public static func value(_ text: String, for option: OptionSpec, ignoringCase: Bool = false) throws(UsageError) -> Self {
        guard let value = parse(text, ignoringCase: ignoringCase) else {
            throw ValueParsing.invalid(text, for: option, expected: alternatives)
        }
        return value
    }
}

extension Choice where Self: RawRepresentable, RawValue == String {
    /// The raw value.
    public var word: String { rawValue }
}
