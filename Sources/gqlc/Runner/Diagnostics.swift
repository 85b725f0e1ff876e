import GQLCore

/// Writes errors and notes to standard error, one line each, with secrets scrubbed.
struct Diagnostics {
    let sink: any TextSink
    var redactor: Redactor = Redactor(secrets: [])

    /// `gqlc: <message>`.
    func error(_ message: String) {
        sink.write("gqlc: " + redactor.scrub(Self.oneLine(message)) + "\n")
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

    /// Messages from servers may hold line breaks; keep each diagnostic on one line, and short enough to read.
    static func oneLine(_ text: String) -> String {
        let short = shortened(text)
        guard short.contains(where: \.isNewline) else { return short }
        return short.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The longest message printed whole, in bytes of UTF-8.
    static let maximumLength = 1000

    /// A message that echoes a huge value (a 10 MB server message, a pasted file) loses its middle, keeping
    /// the start (what was wrong) and the end (where, and the hint).
    static func shortened(_ text: String) -> String {
        guard text.utf8.count > maximumLength else { return text }
        let scalars = text.unicodeScalars
        let head = String(scalars.prefix(600))
        let tail = String(scalars.suffix(300))
        let omitted = scalars.count - 900
        return "\(head)… (\(omitted) characters omitted) …\(tail)"
    }
}
