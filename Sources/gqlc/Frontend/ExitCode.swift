import GQLCore

/// The process exit status; the core computes it (``ExitStatus``), the overview help documents every value.
typealias ExitCode = ExitStatus

/// The version `gqlc --version` prints.
enum Version {
    static let number = "0.1.0"
    /// `gqlc 0.1.0`.
    static let line = "gqlc \(number)"
}
