import GQLCore

/// The option a mistyped flag most likely meant. A word other tools use for the same thing (`--page-token`) and
/// an abbreviation (`--out`) say more than spelling does, so they are tried before edit distance, which alone
/// would take `--page-token` for `--auth-token` and `--out` for `--count`.
enum FlagSuggestions {
    /// Names other CLIs (curl, gh, the AWS CLI, kubectl) give to what gqlc calls the value's option.
    static let synonyms: [String: String] = [
        "page-token": "next-token", "starting-token": "next-token", "cursor": "next-token", "after": "next-token",
        "continuation-token": "next-token", "token": "next-token",
        "format": "output", "max-items": "limit", "first": "limit", "max": "limit",
        "colour": "color", "no-colour": "no-color", "variables": "vars", "variable": "var",
        "file": "input", "data": "input", "sort-order": "sort",
    ]

    /// The long names (without dashes) `typed` most likely meant among `candidates`, best first; empty when none
    /// is close. Several are returned only for an abbreviation that fits more than one (`--in`).
    static func matches(for typed: String, in candidates: [String]) -> [String] {
        let word = typed.lowercased()
        if let synonym = synonyms[word], candidates.contains(synonym) { return [synonym] }
        if word.count >= 2 {
            let extending = candidates.filter { $0.hasPrefix(word) }.sorted()
            if !extending.isEmpty { return Array(extending.prefix(3)) }
        }
        return Suggestions.closest(to: word, in: candidates).map { [$0] } ?? []
    }

    /// `"; did you mean '--output'?"`, `"; did you mean '--include', '--index' or '--input'?"`, or nil.
    static func didYouMean(_ typed: String, in candidates: [String]) -> String? {
        let names = matches(for: typed, in: candidates).map { "'--\($0)'" }
        guard let last = names.last else { return nil }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
    }
}
