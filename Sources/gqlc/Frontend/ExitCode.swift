/// The process exit status; the overview help documents every value.
enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// The response has GraphQL errors and no data.
    case graphQLErrors = 1
    /// Bad arguments, or an unreadable schema or input file.
    case usage = 2
    /// The response has both data and errors.
    case partialData = 3
    /// `get`, `update` or `delete` returned null without errors.
    case notFound = 4
    /// An HTTP error status, or a response that is not GraphQL.
    case httpError = 5
    /// A network failure or timeout.
    case networkFailure = 6
}

/// The version `gqlc --version` prints.
enum Version {
    static let number = "0.1.0"
    /// `gqlc 0.1.0`.
    static let line = "gqlc \(number)"
}
