/// A GraphQL type-system document (SDL): the types, enums, inputs and directives a schema declares
/// (GraphQL spec, October 2021, section 3). Descriptions are read and dropped.
///
/// ```swift
/// let sdl = try SchemaDocument(parsing: "type Post @model { id: ID! title: String }", fileName: "schema.graphql")
/// sdl.definitions.first?.name           // "Post"
/// sdl.position(of: sdl.definitions[0].offset)   // 1:1
/// ```
public struct SchemaDocument: Sendable {
    /// The definitions, in source order (extensions included, with ``TypeSystemDefinition/isExtension`` set).
    public let definitions: [TypeSystemDefinition]
    /// The file name given to the parser, used in error messages.
    public var fileName: String? { source.fileName }

    let source: SourceText

    /// Parses SDL text.
    /// - Throws: ``GraphQLSyntaxError`` with the line and column of the first error.
    public init(parsing text: String, fileName: String? = nil) throws(GraphQLSyntaxError) {
        source = SourceText(text, fileName: fileName)
        var parser = try Parser(source)
        definitions = try parser.parseTypeSystemDocument()
    }

    /// The line and column of a byte offset that a definition, field or directive records.
    public func position(of offset: Int) -> SourcePosition { source.locate(offset).position }
}

/// One top-level type-system definition or extension.
public struct TypeSystemDefinition: Sendable {
    public enum Kind: String, Sendable, Equatable {
        case schema, scalar, object = "type", interface, union, enumeration = "enum", input, directive
    }

    public var kind: Kind
    /// The type's name; for `schema`, "schema"; for a directive definition, its name without `@`.
    public var name: String
    public var isExtension: Bool
    public var directives: [LocatedDirective]
    /// Object, interface and input fields (for a directive definition: its arguments).
    public var fields: [FieldDefinition]
    /// Enum values.
    public var enumValues: [EnumValueDefinition]
    /// Union members, or the interfaces an object or interface implements.
    public var typeNames: [String]
    /// `schema { query: Query … }`: operation type and named type.
    public var operationTypes: [(operation: String, type: String)]
    /// Byte offset of the definition's name (or keyword, for `schema`).
    public var offset: Int
}

/// A field of an object, interface or input type, or an argument.
public struct FieldDefinition: Sendable {
    public var name: String
    public var type: TypeReference
    public var arguments: [FieldDefinition]
    public var defaultValue: InputValue?
    public var directives: [LocatedDirective]
    /// Byte offset of the name.
    public var offset: Int
}

/// One enum value with its directives.
public struct EnumValueDefinition: Sendable {
    public var name: String
    public var directives: [LocatedDirective]
    public var offset: Int
}

/// A directive application and where it was written (the offset of its `@`).
public struct LocatedDirective: Sendable {
    public var name: String
    public var arguments: [Argument]
    public var offset: Int

    /// The argument named `name`, if given.
    public func argument(_ name: String) -> InputValue? { arguments.first { $0.name == name }?.value }
}
