import Spelling

/// The option a mistyped flag most likely meant. A word other tools use for the same thing (`--page-token`) and
/// an abbreviation (`--out`) say more than spelling does, so they are tried before edit distance, which alone
/// would take `--page-token` for `--auth-token` and `--out` for `--count`.
public struct FlagSuggestions: Sendable {
    /// Long names other tools give to what this program calls the value's option (`"format": "output"`).
    public var synonyms: [String: String]

    /// Suggestions that know these synonyms.
    public init(synonyms: [String: String] = [:]) {
        self.synonyms = synonyms
    }

    /// The long names (without dashes) `typed` most likely meant among `candidates`, best first; empty when none
    /// is close. Several are returned only for an abbreviation that fits more than one (`--in`).
    public func matches(for typed: String, in candidates: [String]) -> [String] {
        let word = typed.lowercased()
        if let synonym = synonyms[word], candidates.contains(synonym) { return [synonym] }
        if word.count >= 2 {
            let extending = candidates.filter { $0.hasPrefix(word) }.sorted()
            if !extending.isEmpty { return Array(extending.prefix(3)) }
        }
        return Suggestions.closest(to: word, in: candidates).map { [$0] } ?? []
    }

    /// `"; did you mean '--output'?"`, `"; did you mean '--include', '--index' or '--input'?"`, or nil.
    public func didYouMean(_ typed: String, in candidates: [String]) -> String? {
        let names = matches(for: typed, in: candidates).map { "'--\($0)'" }
        guard let last = names.last else { return nil }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
    }
}
