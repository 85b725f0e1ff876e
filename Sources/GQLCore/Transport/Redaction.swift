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

    /// `text` with every occurrence of every secret replaced by its masked form, including a secret that an
    /// excerpt cut short: more of it than the masked form shows, then `…`.
    public func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets {
            if result.contains(secret) {
                result = result.replacing(secret, with: HeaderRedaction.redactValue(secret))
            }
            guard result.contains("…"), secret.count > HeaderRedaction.prefixLength + 1 else { continue }
            for length in stride(from: secret.count - 1, to: HeaderRedaction.prefixLength, by: -1) {
                let cut = secret.prefix(length) + "…"
                if result.contains(cut) {
                    result = result.replacing(cut, with: HeaderRedaction.redactValue(secret))
                }
            }
        }
        return result
    }
}
