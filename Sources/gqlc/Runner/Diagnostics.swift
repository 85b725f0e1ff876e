import GQLCore

/// Writes errors and notes to standard error, one line each, with secrets scrubbed.
struct Diagnostics {
    let sink: any TextSink
    var redactor: Redactor = Redactor(secrets: [])

    /// `gqlc: <message>`.
    func error(_ message: String) {
        sink.write("gqlc: " + redactor.scrub(Self.oneLine(message)) + "\n")
    }

    /// A failure's message, then any context lines (the offending line and a caret).
    func failure(_ failure: RunFailure) {
        error(failure.message)
        for line in failure.context { sink.write(redactor.scrub(line) + "\n") }
    }

    /// Each GraphQL error on its own line: its errorType, message and path.
    func graphQLErrors(_ errors: [GraphQLError]) {
        for error in errors { self.error(error.description) }
    }

    /// Where to resume an unfinished listing: `next token: …`.
    func resumeToken(_ token: String) {
        sink.write("next token: \(token)\n")
    }

    /// A note that is not an error.
    func note(_ message: String) {
        sink.write("gqlc: " + redactor.scrub(Self.oneLine(message)) + "\n")
    }

    /// Messages from servers may hold line breaks; keep each diagnostic on one line.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
