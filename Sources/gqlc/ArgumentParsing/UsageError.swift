/// A mistake in the command line: ``Diagnostics`` prints `gqlc: <message>` and the program exits with status 2.
///
/// Messages are one line: what was wrong, quoting the offending text, and a suggestion when there is one.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The line printed on standard error.
    var description: String { "gqlc: " + message }
}
