/// A mistake in the command line: the program prints `PROGRAM: <message>` and exits with its usage status.
///
/// Messages are one line: what was wrong, quoting the offending text, and a suggestion when there is one.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, without the program's name.
    public let message: String

    /// An error with this one-line message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
