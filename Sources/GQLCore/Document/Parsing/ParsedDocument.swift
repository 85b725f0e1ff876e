/// A document parsed from text, with the source positions that validation errors point at.
///
/// The positions live beside the ``Document``, not in it, so parsed and built documents compare
/// equal when they have the same structure.
///
/// ```swift
/// let parsed = try ParsedDocument(parsing: text, fileName: "hero.graphql")
/// let problems = parsed.validate()                     // [GraphQLDocumentError], with line:column
/// let operation = try parsed.operation(named: nil)     // the one operation, or an error
/// ```
public struct ParsedDocument: Sendable {
    /// The deepest nesting of selection sets, list and object values, and list types the parser accepts.
    public static let maximumDepth = 256

    /// The syntax tree.
    public let document: Document
    /// The file name given to the parser, used in error messages.
    public var fileName: String? { source.fileName }

    let source: SourceText
    /// One entry per definition of `document`, in the same order.
    let locations: [DefinitionLocations]

    /// Parses an executable GraphQL document: operations and fragments.
    ///
    /// - Parameters:
    ///   - text: The GraphQL source.
    ///   - fileName: Shown in error messages, e.g. `"hero.graphql"` or `"<stdin>"`.
    /// - Throws: ``GraphQLSyntaxError`` with the line and column of the first error.
    public init(parsing text: String, fileName: String? = nil) throws(GraphQLSyntaxError) {
        source = SourceText(text, fileName: fileName)
        var parser = try Parser(source)
        document = try parser.parseDocument()
        locations = parser.locations
    }

    /// The source position of a byte offset.
    func position(of offset: Int) -> SourcePosition { source.locate(offset).position }
}

extension Document {
    /// Parses an executable GraphQL document, keeping only the syntax tree.
    ///
    /// ```swift
    /// let document = try Document(parsing: "query Hero { hero { name } }")
    /// document.operations.first?.name   // "Hero"
    /// ```
    public init(parsing text: String, fileName: String? = nil) throws(GraphQLSyntaxError) {
        self = try ParsedDocument(parsing: text, fileName: fileName).document
    }
}

extension TypeReference {
    /// Parses a type as written in a variable definition: `ID`, `[Episode!]!`.
    ///
    /// ```swift
    /// let type = try TypeReference(parsing: "[Int!]!")   // .nonNull(.list(.nonNull(.named("Int"))))
    /// ```
    public init(parsing text: String) throws(GraphQLSyntaxError) {
        var parser = try Parser(SourceText(text, fileName: nil))
        self = try parser.parseStandaloneType()
    }
}
