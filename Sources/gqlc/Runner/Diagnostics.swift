import GQLCore

/// Writes errors and notes to standard error, one line each, with secrets scrubbed.
struct Diagnostics {
    let sink: any TextSink
    var redactor: Redactor = Redactor(secrets: [])
    /// Which argument set which part of the variables, to put a server's refusal of a value in the user's terms.
    var origins = VariableOrigins()

    /// `gqlc: <message>`.
    func error(_ message: String) {
        sink.write("gqlc: " + redactor.scrub(Self.oneLine(message)) + "\n")
    }

    /// A failed request's message; a TLS failure says how to trust a private CA.
    func error(_ failure: ExecutionError) {
        guard case .transport(.tls, _) = failure else { return error(failure.commandLineMessage) }
        error(failure.commandLineMessage + "; to trust a private CA, " + Remedy.give(.caFile).commandLine)
    }

    /// A failure's message, then any context lines (the offending line and a caret).
    func failure(_ failure: RunFailure) {
        error(failure.message)
        for line in failure.context { sink.write(redactor.scrub(line) + "\n") }
    }

    /// Each GraphQL error on its own line: its errorType, message and path; a refused variable value names
    /// the field and the argument that set it, then the server's words.
    func graphQLErrors(_ errors: [GraphQLError]) {
        for error in errors {
            self.error(VariableErrorMapping.rewrite(error.message, origins: origins) ?? error.description)
        }
    }

    /// Where to resume an unfinished listing: `next token: …` (the server's token, kept to one safe line).
    func resumeToken(_ token: String) {
        sink.write("next token: \(Self.oneLine(token))\n")
    }

    /// A live run's notice on stderr, the one place they are said: the acknowledgement bare (scripts wait for
    /// `subscribed: NAME`), every other as a `gqlc:` line.
    func say(_ notice: LiveNotice) {
        if notice.isAcknowledgement {
            sink.write("\(notice)\n")
        } else {
            error(notice.description)
        }
    }

    /// After a job that deferred `output`'s failures: nil when every write succeeded; else ``ExitCode/closedPipe``
    /// (nothing said), or ``ExitCode/writeFailed`` after one line saying why.
    func outputFailure(_ output: any TextSink) -> ExitCode? {
        switch output.failure {
        case nil: return nil
        case .closedPipe?: return .closedPipe
        case .failed(let reason)?:
            error("cannot write standard output: \(reason)")
            return .writeFailed
        }
    }

    /// Messages from servers may hold line breaks; keep each diagnostic on one line, and short enough to read.
    static func oneLine(_ text: String) -> String {
        text.oneLine(lineBreaks: .spaces, cut: .middle(maximumLength))
    }

    /// The longest message printed whole, in characters.
    static let maximumLength = 1000
}
