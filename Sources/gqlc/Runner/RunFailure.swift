import GQLCore

/// Why a command stopped early; ``Diagnostics/failure(_:)`` prints it as one `gqlc:` line (and any context),
/// and ``status`` is the exit code.
enum RunFailure: Error, Sendable {
    /// Bad usage or input: the message, then lines that show where (a document line and a caret).
    case usage(String, context: [String] = [])
    /// The schema file cannot be used.
    case schema(SchemaError)
    /// A model request cannot be built from the arguments.
    case request(RequestBuildError)
    /// The endpoint settings are unusable.
    case endpoint(EndpointError)
    /// IAM auth has no region or credentials.
    case awsAuth(AWSAuthError)
    /// User-pool sign-in or its stored tokens failed.
    case cognito(CognitoError)
    /// Following an included list failed after the record was printed; says why.
    case includedListFailed(String)
    /// Ctrl-C or SIGTERM while waiting for the user.
    case interrupted

    /// A multi-line report (a parse error with its line and caret): the first line is the message.
    static func report(_ report: String) -> RunFailure {
        var lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.isEmpty ? report : lines.removeFirst()
        return .usage(first, context: lines)
    }

    /// The one-line message, with flags named as on the command line.
    var message: String {
        switch self {
        case .usage(let message, _): message
        case .schema(let error): error.commandLineMessage
        case .request(let error): error.commandLineMessage
        case .endpoint(let error): error.commandLineMessage
        case .awsAuth(let error): error.commandLineMessage
        case .cognito(let error): ContextError.cognito(error).commandLineMessage
        case .includedListFailed(let reason): "following an included list failed: \(reason)"
        case .interrupted: "interrupted"
        }
    }

    /// Lines printed after the message.
    var context: [String] {
        if case .usage(_, let context) = self { return context }
        return []
    }

    /// 3 when the record was printed without all of its included lists; 5 when AWS or Cognito refused
    /// (or a new sign-in is needed) and 6 when it could not be reached; else 2.
    var status: ExitCode {
        switch self {
        case .includedListFailed: return .partial
        case .interrupted: return .interrupted
        case .awsAuth(let error) where error.isServiceRefusal: return .httpError
        case .cognito(.transport(let error)): return error == .cancelled ? .interrupted : .network
        case .cognito(.service), .cognito(.signInAgain), .cognito(.notSignedIn), .cognito(.badResponse),
             .cognito(.badChallenge), .cognito(.unsupportedChallenge):
            return .httpError
        default: return .usage
        }
    }
}

/// The failures of the core's errors and of prompts and inputs, phrased with the flags that fix them.
extension RunFailure {
    /// A context that cannot be resolved, phrased with the flags and variables that fix it.
    init(_ error: ContextError) {
        switch error {
        case .schema(let error): self = .schema(error)
        case .endpoint(let error): self = .endpoint(error)
        case .awsAuth(let error): self = .awsAuth(error)
        case .cognito(let error): self = .cognito(error)
        default: self = .usage(error.commandLineMessage)
        }
    }

    /// A prompt's failure; with no terminal, the flag that reads the answers from standard input.
    init(_ failure: LinePrompter.Failure) {
        switch failure {
        case .interrupted: self = .interrupted
        case .noTerminal:
            self = .usage("\(failure); pass \(LoginCommand.passwordStdin.flagName) and write it to standard input")
        case .inputEnded, .notGiven: self = .usage(failure.description)
        }
    }

    /// `--input`'s problem, the flag named once.
    static func bulkInput(_ error: BulkInputOpenError) -> RunFailure {
        .usage("\(BulkOptions.input.flagName): \(error.message(phrase: CommandLineBulkPhrasing.phrase))")
    }
}
