/// A GraphQL API's schema as the standard introspection query returns it (`data.__schema`): what
/// `gqlc schema pull` derives models from and `gqlc schema print` prints as SDL.
public struct APISchema: Sendable, Equatable {
    public struct TypeRef: Sendable, Equatable {
        /// `NON_NULL`, `LIST`, or the named type's kind.
        public var kind: String
        public var name: String?
        public indirect enum Wrapped: Sendable, Equatable { case none, some(TypeRef) }
        public var ofType: Wrapped

        /// The named type at the core.
        public var namedType: String {
            if case .some(let inner) = ofType { return inner.namedType }
            return name ?? ""
        }

        /// As GraphQL text: `[Post!]!`.
        public var text: String {
            switch (kind, ofType) {
            case ("NON_NULL", .some(let inner)): return inner.text + "!"
            case ("LIST", .some(let inner)): return "[" + inner.text + "]"
            default: return name ?? ""
            }
        }

        /// As a parser type reference.
        public var reference: TypeReference {
            switch (kind, ofType) {
            case ("NON_NULL", .some(let inner)): return .nonNull(inner.reference)
            case ("LIST", .some(let inner)): return .list(inner.reference)
            default: return .named(name ?? "")
            }
        }
    }

    public struct InputValue: Sendable, Equatable {
        public var name: String
        public var description: String?
        public var type: TypeRef
        /// The default as GraphQL literal text.
        public var defaultValue: String?
    }

    public struct Field: Sendable, Equatable {
        public var name: String
        public var description: String?
        public var arguments: [InputValue]
        public var type: TypeRef
        public var isDeprecated: Bool
        public var deprecationReason: String?
    }

    public struct NamedType: Sendable, Equatable {
        /// `OBJECT`, `INPUT_OBJECT`, `ENUM`, `SCALAR`, `INTERFACE` or `UNION`.
        public var kind: String
        public var name: String
        public var description: String?
        public var fields: [Field]
        public var inputFields: [InputValue]
        public var enumValues: [String]
        public var interfaces: [String]
        public var possibleTypes: [String]
    }

    public var queryType: String?
    public var mutationType: String?
    public var subscriptionType: String?
    /// The types in the server's order.
    public var types: [NamedType]

    /// The type named `name`.
    public func type(named name: String) -> NamedType? { types.first { $0.name == name } }

    /// The standard introspection query (graphql-js's `getIntrospectionQuery`, without directives' locations).
    public static let query = """
        query IntrospectionQuery {
          __schema {
            queryType { name }
            mutationType { name }
            subscriptionType { name }
            types { ...FullType }
          }
        }

        fragment FullType on __Type {
          kind
          name
          description
          fields(includeDeprecated: true) {
            name
            description
            args { ...InputValue }
            type { ...TypeRef }
            isDeprecated
            deprecationReason
          }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name }
          possibleTypes { ...TypeRef }
        }

        fragment InputValue on __InputValue {
          name
          description
          type { ...TypeRef }
          defaultValue
        }

        fragment TypeRef on __Type {
          kind
          name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } }
        }
        """

    /// Decodes `data` (or `data.__schema`, or a whole response with `data`) of the introspection query.
    public init(json: JSONValue, source: String) throws(SchemaError) {
        var root = JSONNode(value: json, path: "", file: source)
        if let data = try root.optional("data") { root = data }
        if let schema = try root.optional("__schema") { root = schema }
        queryType = try root.optional("queryType")?.optionalName("name")
        mutationType = try root.optional("mutationType")?.optionalName("name")
        subscriptionType = try root.optional("subscriptionType")?.optionalName("name")
        types = []
        for node in try root.required("types").elements() {
            types.append(try Self.namedType(node))
        }
    }

    private static func namedType(_ node: JSONNode) throws(SchemaError) -> NamedType {
        var fields: [Field] = []
        for field in try node.optional("fields")?.elements() ?? [] {
            var arguments: [InputValue] = []
            for argument in try field.optional("args")?.elements() ?? [] { arguments.append(try inputValue(argument)) }
            fields.append(Field(
                name: try field.required("name").name(), description: try field.optionalString("description"),
                arguments: arguments, type: try typeRef(field.required("type")),
                isDeprecated: try field.optionalBool("isDeprecated") ?? false,
                deprecationReason: try field.optionalString("deprecationReason")))
        }
        var inputFields: [InputValue] = []
        for field in try node.optional("inputFields")?.elements() ?? [] { inputFields.append(try inputValue(field)) }
        var enumValues: [String] = []
        for value in try node.optional("enumValues")?.elements() ?? [] { enumValues.append(try value.required("name").name()) }
        var interfaces: [String] = []
        for value in try node.optional("interfaces")?.elements() ?? [] { interfaces.append(try typeRef(value).namedType) }
        var possibleTypes: [String] = []
        for value in try node.optional("possibleTypes")?.elements() ?? [] { possibleTypes.append(try typeRef(value).namedType) }
        return NamedType(
            kind: try node.required("kind").string(), name: try node.required("name").name(),
            description: try node.optionalString("description"), fields: fields, inputFields: inputFields,
            enumValues: enumValues, interfaces: interfaces, possibleTypes: possibleTypes)
    }

    private static func inputValue(_ node: JSONNode) throws(SchemaError) -> InputValue {
        InputValue(
            name: try node.required("name").name(), description: try node.optionalString("description"),
            type: try typeRef(node.required("type")), defaultValue: try node.optionalString("defaultValue"))
    }

    private static func typeRef(_ node: JSONNode) throws(SchemaError) -> TypeRef {
        let inner = try node.optional("ofType").map { (child: JSONNode) throws(SchemaError) -> TypeRef in try typeRef(child) }
        return TypeRef(kind: try node.required("kind").string(), name: try node.optionalName("name"),
                       ofType: inner.map(TypeRef.Wrapped.some) ?? TypeRef.Wrapped.none)
    }
}
