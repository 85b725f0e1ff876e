import GQLCore

/// Why a command stopped early: a one-line message for stderr and the exit status.
struct RunFailure: Error, Sendable {
    let message: String
    let status: ExitCode
    /// Lines that show where the problem is (a document line and a caret), printed after the message.
    var context: [String] = []

    init(_ message: String, status: ExitCode = .usage, context: [String] = []) {
        self.message = message
        self.status = status
        self.context = context
    }

    /// The first line of a multi-line report is the message; the rest is context.
    init(report: String, status: ExitCode = .usage) {
        var lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.isEmpty ? report : lines.removeFirst()
        self.init(first, status: status, context: lines)
    }

    static func schema(_ error: SchemaError) -> RunFailure { RunFailure(error.description) }
}
