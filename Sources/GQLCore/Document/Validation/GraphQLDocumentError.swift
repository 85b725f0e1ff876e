/// A problem in a syntactically valid document that a server would reject: an unknown fragment,
/// a fragment cycle, an undeclared variable, a duplicate name, and so on.
///
/// Errors from a ``ParsedDocument`` carry the source position; errors from a built ``Document`` do not.
///
/// ```swift
/// for problem in try ParsedDocument(parsing: text, fileName: "q.graphql").validate() {
///     print(problem.report)
///     // q.graphql:4:8: unknown fragment 'heroFeilds'; did you mean 'heroFields'?
///     //     ...heroFeilds
///     //        ^
/// }
/// ```
public struct GraphQLDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, with the names involved.
    public enum Kind: Sendable, Equatable {
        /// Two operations share a name.
        case duplicateOperationName(String)
        /// An operation without a name sits beside other operations.
        case anonymousOperationNotAlone
        /// Two fragments share a name.
        case duplicateFragmentName(String)
        /// A spread names a fragment the document does not define.
        case undefinedFragment(String)
        /// Fragments spread each other in a loop; the names run from the first back to itself.
        case fragmentCycle([String])
        /// A fragment that no operation spreads.
        case unusedFragment(String)
        /// A variable used by an operation (directly or through fragments) that it does not declare.
        case undeclaredVariable(String, operation: String?)
        /// A variable an operation declares but never uses.
        case unusedVariable(String, operation: String?)
        /// A variable declared twice by one operation.
        case duplicateVariable(String, operation: String?)
        /// A name that is not a GraphQL name (only possible in a built document); `role` says whose.
        case invalidName(String, role: String)
        /// Number text that is not a GraphQL Int or Float literal (only possible in a built document).
        case invalidNumber(String)
        /// An enum value spelled `true`, `false` or `null` (only possible in a built document).
        case invalidEnumValue(String)
        /// An operation or fragment with no selections (only possible in a built document).
        case emptySelectionSet(String)
        /// A variable inside a default value or a directive of a variable definition.
        case variableInConstant(String)
    }

    /// What is wrong, for code that reacts to particular problems.
    public let kind: Kind
    /// One line saying what is wrong and how to fix it.
    public let message: String
    /// Where the problem is, for parsed documents.
    public let position: SourcePosition?
    /// The file name given to the parser, if any.
    public let fileName: String?
    /// The text of the offending line, for parsed documents.
    public let lineText: String?

    /// An error as the validator makes it.
    public init(
        kind: Kind, message: String, position: SourcePosition? = nil, fileName: String? = nil, lineText: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.position = position
        self.fileName = fileName
        self.lineText = lineText
    }

    /// One line: `file:LINE:COLUMN: message`, or just the message when there is no position.
    public var description: String { SourceSnippet.summary(fileName: fileName, position: position, message: message) }

    /// The summary, then (when the position is known) the source line and a caret under the column.
    public var report: String {
        SourceSnippet.report(fileName: fileName, position: position, message: message, lineText: lineText)
    }
}
