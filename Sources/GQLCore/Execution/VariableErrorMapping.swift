/// Where the parts of a request's variables came from, by JSON path: `input.email` → `'email=x'`,
/// `filter.and[1]` → `--where 'at>2025-01-01'`. Built by the front end, which knows its arguments' names.
public struct VariableOrigins: Sendable, Equatable {
    /// Origins by path (`input`, `input.email`, `filter.and[1]`).
    public var byPath: [String: String]

    public init(_ byPath: [String: String] = [:]) { self.byPath = byPath }

    /// The origin of the longest recorded path that is `path` or contains it.
    public func origin(of path: String) -> String? {
        var candidate = path
        while true {
            if let origin = byPath[candidate] { return origin }
            guard let cut = candidate.lastIndex(where: { $0 == "." || $0 == "[" }) else { return nil }
            candidate = String(candidate[..<cut])
        }
    }
}

/// Puts a server's refusal of a variable in the user's terms: the path inside `$input`, `$filter` or
/// `$condition` becomes the field and the argument that set it, and the server's own words follow.
///
/// Reads the two forms servers use: graphql-js and graphql-core write
/// `Variable '$input' got invalid value "x" at 'input.email'; Expected type 'AWSEmail'. …` (and, for a missing
/// field, `…; Field 'content' of required type 'String!' was not provided.`); graphql-java (AppSync) writes
/// `Variable 'input' has an invalid value: …`.
public enum VariableErrorMapping {
    /// The message rewritten, or nil when it is not about a variable's value.
    public static func rewrite(_ message: String, origins: VariableOrigins) -> String? {
        guard message.hasPrefix("Variable '") else { return nil }
        let afterQuote = message.dropFirst("Variable '".count)
        guard let close = afterQuote.firstIndex(of: "'") else { return nil }
        let variable = String(afterQuote[..<close].drop { $0 == "$" })
        let rest = afterQuote[afterQuote.index(after: close)...]
        var path = variable
        var text: Substring
        if rest.hasPrefix(" got invalid value ") {
            guard let semicolon = rest.firstRange(of: "; ") else { return nil }
            let head = rest[..<semicolon.lowerBound]
            text = rest[semicolon.upperBound...]
            if let at = head.ranges(of: " at '").last, head.hasSuffix("'") {
                path = String(head[at.upperBound..<head.index(before: head.endIndex)])
            } else if text.hasPrefix("Field '"), let name = text.dropFirst("Field '".count).split(separator: "'").first {
                path = variable + "." + name
            }
        } else if let colon = rest.firstRange(of: "invalid value") {
            text = rest[colon.upperBound...].drop { $0 == ":" || $0 == " " || $0 == "." }
            if text.isEmpty { text = rest.drop { $0 == " " } }
        } else {
            return nil
        }
        let field = path.split(separator: ".").dropFirst().map { String($0.prefix { $0 != "[" }) }
            .first { !["and", "or", "not", ""].contains($0) }
        var subject = origins.origin(of: path) ?? "$\(variable)"
        if let field { subject += " (field '\(field)')" }
        return subject + ": " + text
    }
}
