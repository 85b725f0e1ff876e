/// The syntax tree of an executable GraphQL document: operations and fragments.
///
/// The request builder makes these trees for model commands, the parser makes them for `raw`,
/// and ``DocumentPrinter`` turns any of them into text. Values are never pasted into text:
/// they are ``InputValue``s, which the printer escapes.
///
/// ```swift
/// let document = Document(operations: [
///     OperationDefinition(.query, name: "Hero", selections: [
///         .field(Field("hero", selections: [.field(Field("name"))]))
///     ])
/// ])
/// print(document.printed())   // query Hero {\n  hero {\n    name\n  }\n}
/// ```
public struct Document: Sendable, Equatable {
    public var definitions: [Definition]

    public init(definitions: [Definition]) { self.definitions = definitions }
    public init(operations: [OperationDefinition], fragments: [FragmentDefinition] = []) {
        definitions = operations.map(Definition.operation) + fragments.map(Definition.fragment)
    }

    /// The operations, in document order.
    public var operations: [OperationDefinition] {
        definitions.compactMap { if case .operation(let op) = $0 { return op } else { return nil } }
    }
    /// The fragment definitions, in document order.
    public var fragments: [FragmentDefinition] {
        definitions.compactMap { if case .fragment(let fragment) = $0 { return fragment } else { return nil } }
    }
}

/// One top-level definition.
public enum Definition: Sendable, Equatable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
}

/// `query`, `mutation` or `subscription`.
public enum OperationType: String, Sendable, Equatable, CaseIterable {
    case query, mutation, subscription
}

/// An operation: `query GetPost($id: ID!) { … }`.
public struct OperationDefinition: Sendable, Equatable {
    public var operationType: OperationType
    public var name: String?
    public var variableDefinitions: [VariableDefinition]
    public var directives: [Directive]
    public var selectionSet: [Selection]

    public init(
        _ operationType: OperationType, name: String? = nil, variables: [VariableDefinition] = [],
        directives: [Directive] = [], selections: [Selection]
    ) {
        self.operationType = operationType
        self.name = name
        self.variableDefinitions = variables
        self.directives = directives
        self.selectionSet = selections
    }
}

/// A variable declaration: `$episode: Episode = JEDI`.
public struct VariableDefinition: Sendable, Equatable {
    public var name: String
    public var type: TypeReference
    public var defaultValue: InputValue?
    public var directives: [Directive]

    public init(_ name: String, type: TypeReference, defaultValue: InputValue? = nil, directives: [Directive] = []) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
    }
}

/// A type in a variable declaration: `ID`, `[Int!]`, `ModelPostFilterInput!`.
public indirect enum TypeReference: Sendable, Equatable, CustomStringConvertible {
    case named(String)
    case list(TypeReference)
    case nonNull(TypeReference)

    /// The type as GraphQL text.
    public var description: String {
        switch self {
        case .named(let name): return name
        case .list(let inner): return "[\(inner)]"
        case .nonNull(let inner): return "\(inner)!"
        }
    }

    /// The named type at the core of the reference.
    public var namedType: String {
        switch self {
        case .named(let name): return name
        case .list(let inner), .nonNull(let inner): return inner.namedType
        }
    }

    /// This type made non-null (unchanged if it already is).
    public var nonNull: TypeReference {
        if case .nonNull = self { return self }
        return .nonNull(self)
    }
}

/// One entry of a selection set.
public enum Selection: Sendable, Equatable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)
}

/// A field selection: `alias: name(arg: value) @directive { … }`.
public struct Field: Sendable, Equatable {
    public var alias: String?
    public var name: String
    public var arguments: [Argument]
    public var directives: [Directive]
    public var selectionSet: [Selection]

    public init(
        _ name: String, alias: String? = nil, arguments: [Argument] = [], directives: [Directive] = [],
        selections: [Selection] = []
    ) {
        self.alias = alias
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.selectionSet = selections
    }

    /// The key this field has in the response: its alias, or else its name.
    public var responseKey: String { alias ?? name }
}

/// An argument: `id: $id`, `unit: FOOT`.
public struct Argument: Sendable, Equatable {
    public var name: String
    public var value: InputValue

    public init(_ name: String, _ value: InputValue) {
        self.name = name
        self.value = value
    }
}

/// A directive: `@include(if: $withFriends)`.
public struct Directive: Sendable, Equatable {
    public var name: String
    public var arguments: [Argument]

    public init(_ name: String, arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// A value written in a document: a literal, a variable, a list or an input object.
public indirect enum InputValue: Sendable, Equatable {
    case variable(String)
    /// An integer literal, kept as text.
    case int(String)
    /// A float literal, kept as text.
    case float(String)
    case string(String)
    case boolean(Bool)
    case null
    case enumValue(String)
    case list([InputValue])
    case object([ObjectField])

    /// One `name: value` entry of an input object.
    public struct ObjectField: Sendable, Equatable {
        public var name: String
        public var value: InputValue
        public init(_ name: String, _ value: InputValue) {
            self.name = name
            self.value = value
        }
    }
}

/// A named fragment: `fragment comparisonFields on Character { … }`.
public struct FragmentDefinition: Sendable, Equatable {
    public var name: String
    public var typeCondition: String
    public var directives: [Directive]
    public var selectionSet: [Selection]

    public init(_ name: String, on typeCondition: String, directives: [Directive] = [], selections: [Selection]) {
        self.name = name
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selections
    }
}

/// A fragment spread: `...comparisonFields`.
public struct FragmentSpread: Sendable, Equatable {
    public var name: String
    public var directives: [Directive]

    public init(_ name: String, directives: [Directive] = []) {
        self.name = name
        self.directives = directives
    }
}

/// An inline fragment: `... on Droid { primaryFunction }`.
public struct InlineFragment: Sendable, Equatable {
    public var typeCondition: String?
    public var directives: [Directive]
    public var selectionSet: [Selection]

    public init(on typeCondition: String? = nil, directives: [Directive] = [], selections: [Selection]) {
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selections
    }
}
