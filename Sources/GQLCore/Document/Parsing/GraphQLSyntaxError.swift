/// A GraphQL syntax error: what was wrong and where.
///
/// `description` is a one-line summary (`query.graphql:3:9: unterminated string`); ``report`` adds
/// the source line and a caret under the column:
///
/// ```swift
/// do { _ = try Document(parsing: "{ hero(id: \"1) }", fileName: "q.graphql") }
/// catch { print(error.report) }
/// // q.graphql:1:12: unterminated string; close it with '"' before the end of the line
/// // { hero(id: "1) }
/// //            ^
/// ```
public struct GraphQLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in one line.
    public let message: String
    /// Where it was found.
    public let position: SourcePosition
    /// The byte offset in the UTF-8 text.
    public let offset: Int
    /// The file name given to the parser, if any.
    public let fileName: String?
    /// The text of the offending line, without its line terminator.
    public let lineText: String

    /// An error as the parser makes it; tests and callers can make their own.
    public init(message: String, position: SourcePosition, offset: Int, fileName: String? = nil, lineText: String = "") {
        self.message = message
        self.position = position
        self.offset = offset
        self.fileName = fileName
        self.lineText = lineText
    }

    /// 1-based line of the error.
    public var line: Int { position.line }
    /// 1-based column of the error, in Unicode scalars.
    public var column: Int { position.column }

    /// One line: `file:LINE:COLUMN: message` (without `file:` when there is no file name).
    public var description: String { SourceSnippet.summary(fileName: fileName, position: position, message: message) }

    /// Three lines: the summary, the offending source line, and a caret under the column.
    public var report: String {
        SourceSnippet.report(fileName: fileName, position: position, message: message, lineText: lineText)
    }
}
