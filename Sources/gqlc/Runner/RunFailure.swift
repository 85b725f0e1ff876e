import GQLCore

/// Why a command stopped early: a one-line message for stderr and the exit status.
struct RunFailure: Error, Sendable {
    let message: String
    let status: ExitCode

    init(_ message: String, status: ExitCode = .usage) {
        self.message = message
        self.status = status
    }

    static func schema(_ error: SchemaError) -> RunFailure { RunFailure(error.description) }
}
