/// Decides which headers hold secrets and masks their values for `--verbose` output.
public enum HeaderRedaction {
    /// The mask that replaces a secret (its length says nothing about the secret's).
    public static let mask = "████"

    /// Shortest value of which a prefix is shown; shorter secrets show only the mask.
    public static let minimumLengthForPrefix = 12

    /// How many leading characters of a long secret are shown (`da2-` of an AppSync API key).
    public static let prefixLength = 4

    /// Parts of a header name that mark it as sensitive (case-insensitive).
    static let sensitiveNameParts = ["authorization", "token", "secret", "key", "cookie", "password", "credential", "signature"]

    /// True for `x-api-key`, `Authorization` and any header whose name contains `token`, `secret`, `key`,
    /// `cookie`, `password`, `credential` or `signature`, in any case.
    public static func isSensitive(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return sensitiveNameParts.contains { lowered.contains($0) }
    }

    /// A masked form of a secret: `da2-…████` for long values, `████` for short ones.
    public static func redactValue(_ value: String) -> String {
        guard value.count >= minimumLengthForPrefix else { return mask }
        return String(value.prefix(prefixLength)) + "…" + mask
    }

    /// The header with its value masked if its name is sensitive.
    public static func redact(_ header: HTTPHeader) -> HTTPHeader {
        isSensitive(header.name) ? HTTPHeader(name: header.name, value: redactValue(header.value)) : header
    }

    /// Every header, with sensitive values masked.
    public static func redact(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        headers.map(redact)
    }
}

/// Scrubs known secret values from any text (error messages, excerpts of server replies, traces).
///
/// ```swift
/// let redactor = Redactor(secrets: ["da2-abcdefghijklmnop"])
/// redactor.scrub("bad key da2-abcdefghijklmnop")   // "bad key da2-…████"
/// ```
public struct Redactor: Sendable, Equatable {
    /// The secrets, longest first so that a secret containing another is replaced whole.
    public let secrets: [String]

    /// A redactor for the given secret values; empty values are ignored.
    public init(secrets: [String]) {
        var unique: [String] = []
        for secret in secrets where !secret.isEmpty && !unique.contains(secret) { unique.append(secret) }
        self.secrets = unique.sorted { $0.count > $1.count }
    }

    /// A redactor that changes nothing.
    public static let none = Redactor(secrets: [])

    /// Secrets shorter than this are unusual for API keys and tokens; `--verbose` says so.
    public static let shortSecretLength = 8

    /// True when a secret is shorter than ``shortSecretLength``: it is still redacted, but only where it
    /// stands as a whole token, so it may be a mistake (a truncated key, a placeholder).
    public var hasShortSecret: Bool { secrets.contains { $0.count < Self.shortSecretLength } }

    /// `text` with every secret that stands as a whole token replaced by its masked form, including a secret
    /// that an excerpt cut short: more of it than the masked form shows, then `…`. A secret inside a longer
    /// word (`test` in `testing`) is left alone: token characters are letters, digits, `_` and `-`.
    public func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets {
            if result.contains(secret) {
                result = Self.replacingTokens(secret, in: result, with: HeaderRedaction.redactValue(secret), atEnd: true)
            }
            guard result.contains("…"), secret.count > HeaderRedaction.prefixLength + 1 else { continue }
            for length in stride(from: secret.count - 1, to: HeaderRedaction.prefixLength, by: -1) {
                let cut = String(secret.prefix(length)) + "…"
                if result.contains(cut) {
                    result = Self.replacingTokens(cut, in: result, with: HeaderRedaction.redactValue(secret), atEnd: false)
                }
            }
        }
        return result
    }

    static func isTokenCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
    }

    /// `text` with each occurrence of `needle` replaced where no token character touches its start
    /// (and, with `atEnd`, its end).
    private static func replacingTokens(_ needle: String, in text: String, with replacement: String, atEnd: Bool) -> String {
        var result = ""
        var index = text.startIndex
        while let range = text[index...].firstRange(of: needle) {
            let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : nil
            let after = range.upperBound < text.endIndex ? text[range.upperBound] : nil
            let whole = !(before.map(isTokenCharacter) ?? false) && !(atEnd && (after.map(isTokenCharacter) ?? false))
            result += text[index..<range.lowerBound]
            result += whole ? replacement : String(text[range])
            index = range.upperBound
        }
        return result + text[index...]
    }
}
