import GQLCore

/// Writes errors and notes to standard error, one line each, with secrets scrubbed.
struct Diagnostics {
    let sink: any TextSink
    var redactor: Redactor = Redactor(secrets: [])

    /// `gqlc: <message>`.
    func error(_ message: String) {
        sink.write("gqlc: " + redactor.scrub(Self.oneLine(message)) + "\n")
    }

    /// A failed request's message; a TLS failure says how to trust a private CA.
    func error(_ failure: ExecutionError) {
        guard case .transport(.tls, _) = failure else { return error(failure.commandLineMessage) }
        error(failure.commandLineMessage + "; to trust a private CA, pass --cacert FILE or set CURL_CA_BUNDLE")
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

    /// Where to resume an unfinished listing: `next token: …` (the server's token, kept to one safe line).
    func resumeToken(_ token: String) {
        sink.write("next token: \(Self.oneLine(token))\n")
    }

    /// Messages from servers may hold line breaks; keep each diagnostic on one line, and short enough to read.
    static func oneLine(_ text: String) -> String {
        var short = shortened(text)
        if short.contains(where: \.isNewline) {
            short = short.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return withoutControlCharacters(short)
    }

    /// Control characters (but tab) shown as `\u{1B}`: a server's message must not drive the user's terminal.
    static func withoutControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result.append(contentsOf: scalar.escaped(asASCII: true).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar.properties.generalCategory == .control
    }

    /// The longest message printed whole, in characters.
    static let maximumLength = 1000

    /// A message that echoes a huge value (a 10 MB server message, a pasted file) loses its middle, keeping
    /// the start (what was wrong) and the end (where, and the hint). Decides and cuts by the same unit,
    /// characters, so a message in any script is either whole or cut to 600 + 300 characters.
    static func shortened(_ text: String) -> String {
        guard text.utf8.count > maximumLength else { return text }  // fewer bytes than the limit: fewer characters too
        let count = text.count
        guard count > maximumLength else { return text }
        let head = text.prefix(600)
        let tail = text.suffix(300)
        return "\(head)… (\(count - 900) characters omitted) …\(tail)"
    }
}
