import Synchronization

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

    /// Request headers whose values say nothing secret; a value of any other header given by the user (`-H`) is
    /// treated as a secret (`X-Session-Id`, `X-Auth`…).
    static let harmlessNames: Set<String> = [
        "accept", "accept-encoding", "accept-language", "cache-control", "connection", "content-encoding",
        "content-length", "content-type", "expect", "host", "origin", "pragma", "referer", "te", "user-agent",
        "x-amz-content-sha256", "x-amz-date", "x-amz-user-agent", "x-requested-with",
    ]

    /// True for the headers of ``harmlessNames`` (in any case), whose values need no redaction.
    public static func isHarmless(_ name: String) -> Bool {
        harmlessNames.contains(name.lowercased()) && !isSensitive(name)
    }

    /// `AKIA…MPLE`: an access key id's first and last four characters, for `--verbose`.
    public static func keyID(_ value: String) -> String {
        guard value.count > 2 * prefixLength else { return mask }
        return String(value.prefix(prefixLength)) + "…" + String(value.suffix(prefixLength))
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

/// Secrets learnt while the process runs (user-pool tokens signed in with, read from the token file or renewed):
/// every ``Redactor`` scrubs them too, whenever it was made, so a token renewed in the middle of a command (a
/// listing's refresh after a 401, a subscription's new connection) is never printed by a later trace or error.
public enum ProcessSecrets {
    private final class Store: Sendable {
        let secrets = Mutex<[String]>([])
    }

    private static let store = Store()

    /// Adds secrets to scrub for the rest of the process; empty and known values are ignored.
    public static func register(_ secrets: [String]) {
        store.secrets.withLock { known in
            for secret in secrets where !secret.isEmpty && !known.contains(secret) { known.append(secret) }
        }
    }

    /// Every secret registered so far.
    public static var all: [String] { store.secrets.withLock { $0 } }
}

/// Scrubs known secret values from any text (error messages, excerpts of server replies, traces), and every
/// secret registered with ``ProcessSecrets``.
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
    /// stands as a whole token, so it may be a mistake (a truncated key, a placeholder). Longer secrets are
    /// redacted wherever they occur, also glued to letters, digits or `_` (`KEYKEY`, `xda2-…`).
    public var hasShortSecret: Bool { secrets.contains { $0.count < Self.shortSecretLength } }

    /// `text` with every secret replaced by its masked form, including a secret that an excerpt cut short: more of
    /// it than the masked form shows, then `…`; or `…`, then its end. A secret of ``shortSecretLength`` characters or
    /// more is replaced wherever it occurs; a shorter one only where it stands as a whole token (`test` in `testing`
    /// is left alone): token characters are letters, digits, `_` and `-`.
    public func scrub(_ text: String) -> String {
        var result = text
        let learnt = ProcessSecrets.all.filter { !secrets.contains($0) }
        let all = learnt.isEmpty ? secrets : (secrets + learnt).sorted(by: { $0.count > $1.count })
        for secret in all where result.contains(secret) {
            let whole = secret.count < Self.shortSecretLength
            result = Self.replacingTokens(secret, in: result, with: HeaderRedaction.redactValue(secret), atStart: whole, atEnd: whole)
        }
        guard result.contains("…") else { return result }
        let cuttable = all.filter { $0.count > HeaderRedaction.prefixLength + 1 }
        // Ends first: a line cut in its middle may show one secret's start, `…`, then another's end, and masking the
        // start takes the `…` that marks the end.
        for secret in cuttable {
            for length in stride(from: secret.count - 1, to: HeaderRedaction.prefixLength, by: -1) {
                let tail = "…" + String(secret.suffix(length))
                if result.contains(tail) {
                    result = Self.replacingTokens(tail, in: result, with: "…" + HeaderRedaction.mask, atStart: false, atEnd: true)
                }
            }
        }
        for secret in cuttable {
            for length in stride(from: secret.count - 1, to: HeaderRedaction.prefixLength, by: -1) {
                let cut = String(secret.prefix(length)) + "…"
                if result.contains(cut) {
                    result = Self.replacingTokens(cut, in: result, with: HeaderRedaction.redactValue(secret), atEnd: false)
                }
            }
        }
        // A secret cut in its middle is masked from both sides: one mask is enough.
        let twice = HeaderRedaction.mask + HeaderRedaction.mask
        while result.contains(twice) { result = result.replacing(twice, with: HeaderRedaction.mask) }
        return result
    }

    static func isTokenCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
    }

    /// `text` with each occurrence of `needle` replaced where no token character touches its start (with `atStart`)
    /// and its end (with `atEnd`).
    private static func replacingTokens(
        _ needle: String, in text: String, with replacement: String, atStart: Bool = true, atEnd: Bool
    ) -> String {
        var result = ""
        var index = text.startIndex
        while let range = text[index...].firstRange(of: needle) {
            let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : nil
            let after = range.upperBound < text.endIndex ? text[range.upperBound] : nil
            let whole = !(atStart && (before.map(isTokenCharacter) ?? false)) && !(atEnd && (after.map(isTokenCharacter) ?? false))
            result += text[index..<range.lowerBound]
            result += whole ? replacement : String(text[range])
            index = range.upperBound
        }
        return result + text[index...]
    }
}
