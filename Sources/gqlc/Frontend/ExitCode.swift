import GQLCore

/// The process exit codes gqlc documents; the overview help lists every value.
enum ExitCode: Int32, Sendable, Equatable, CaseIterable {
    /// Everything worked.
    case success = 0
    /// GraphQL errors and no data (or another failure of the operation itself).
    case graphQLErrors = 1
    /// Bad usage or input.
    case usage = 2
    /// Partial result: data and errors together.
    case partial = 3
    /// The requested item does not exist: the root field is null with no errors (get/update/delete).
    case notFound = 4
    /// An HTTP error status or a response that is not GraphQL.
    case httpError = 5
    /// A network failure or timeout.
    case network = 6
    /// Output could not be written (standard output or `--rejects`): a full disk, an I/O error.
    case writeFailed = 7
    /// `diff`: the two sides differ (told apart from a failed listing, which is 1, 3, 5 or 6).
    case differ = 8
    /// Stopped by Ctrl-C (128 + SIGINT, the shell convention).
    case interrupted = 130
    /// Standard output's reader went away: the process ends by SIGPIPE (``ProcessEnd/byClosedPipe()``), which a
    /// shell shows as 141.
    case closedPipe = 141
    /// Stopped by SIGTERM (128 + SIGTERM); the core's cancellation says 130, the process maps it at exit.
    case terminated = 143

    /// The code for how an operation ended.
    init(_ kind: ResultKind) {
        self = switch kind {
        case .success: .success
        case .graphQLErrors: .graphQLErrors
        case .invalidInput: .usage
        case .partial: .partial
        case .notFound: .notFound
        case .httpError: .httpError
        case .network: .network
        case .cancelled: .interrupted
        }
    }
}

extension ExecutionError {
    /// 5 for HTTP and non-GraphQL responses, 6 for network failures and timeouts, 130 when cancelled,
    /// 2 for an unusable endpoint URL.
    var exitStatus: ExitCode { ExitCode(kind) }
}

extension RequestOutcome {
    /// 0, 4, 3 or 1.
    var exitStatus: ExitCode { ExitCode(kind) }
}

/// The version `gqlc --version` prints.
enum Version {
    static let number = "0.1.0"
    /// `gqlc 0.1.0`.
    static let line = "gqlc \(number)"
}
