/// Builds a selection set from fields, field names, fragment spreads and inline fragments,
/// with `if`, `if`/`else` and `for`.
///
/// ```swift
/// Field("hero", arguments: ["episode": .variable("episode")]) {
///     "name"                                            // a field by name
///     Field("height", arguments: ["unit": .enumValue("FOOT")])
///     Field("friends", directives: [.include(if: .variable("withFriends"))]) { "name" }
///     FragmentSpread("comparisonFields")
///     InlineFragment(on: "Droid") { "primaryFunction" }
///     if withTypename { "__typename" }
/// }
/// ```
@resultBuilder
public enum SelectionSetBuilder {
    public static func buildExpression(_ field: Field) -> [Selection] { [.field(field)] }
    /// A bare string is a field with that name and nothing else.
    public static func buildExpression(_ name: String) -> [Selection] { [.field(Field(name))] }
    public static func buildExpression(_ spread: FragmentSpread) -> [Selection] { [.fragmentSpread(spread)] }
    public static func buildExpression(_ fragment: InlineFragment) -> [Selection] { [.inlineFragment(fragment)] }
    public static func buildExpression(_ selection: Selection) -> [Selection] { [selection] }
    public static func buildExpression(_ selections: [Selection]) -> [Selection] { selections }
    public static func buildBlock(_ parts: [Selection]...) -> [Selection] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Selection]?) -> [Selection] { part ?? [] }
    public static func buildEither(first part: [Selection]) -> [Selection] { part }
    public static func buildEither(second part: [Selection]) -> [Selection] { part }
    public static func buildArray(_ parts: [[Selection]]) -> [Selection] { parts.flatMap { $0 } }
}

/// Builds a document from operations and fragment definitions.
///
/// ```swift
/// let document = Document {
///     OperationDefinition.query("HeroComparison") {
///         Field("hero", alias: "leftComparison", arguments: ["episode": .enumValue("EMPIRE")]) {
///             FragmentSpread("comparisonFields")
///         }
///     }
///     FragmentDefinition("comparisonFields", on: "Character") { "name" }
/// }
/// ```
@resultBuilder
public enum DocumentBuilder {
    public static func buildExpression(_ operation: OperationDefinition) -> [Definition] { [.operation(operation)] }
    public static func buildExpression(_ fragment: FragmentDefinition) -> [Definition] { [.fragment(fragment)] }
    public static func buildExpression(_ definition: Definition) -> [Definition] { [definition] }
    public static func buildBlock(_ parts: [Definition]...) -> [Definition] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Definition]?) -> [Definition] { part ?? [] }
    public static func buildEither(first part: [Definition]) -> [Definition] { part }
    public static func buildEither(second part: [Definition]) -> [Definition] { part }
    public static func buildArray(_ parts: [[Definition]]) -> [Definition] { parts.flatMap { $0 } }
}

extension Document {
    /// A document from a builder block; see ``DocumentBuilder``.
    public init(@DocumentBuilder _ definitions: () -> [Definition]) {
        self.init(definitions: definitions())
    }
}

extension OperationDefinition {
    /// An operation whose selections come from a builder block.
    ///
    /// ```swift
    /// OperationDefinition(.query, name: "Hero") { Field("hero") { "name" } }
    /// ```
    public init(
        _ operationType: OperationType, name: String? = nil, variables: [VariableDefinition] = [],
        directives: [Directive] = [], @SelectionSetBuilder selections: () -> [Selection]
    ) {
        self.init(operationType, name: name, variables: variables, directives: directives, selections: selections())
    }

    /// A query: `query Name($v: T = default) { … }`, or the `{ … }` shorthand without name,
    /// variables and directives.
    ///
    /// ```swift
    /// OperationDefinition.query("HeroNameAndFriends",
    ///                           variables: [VariableDefinition("episode", type: "Episode", defaultValue: .enumValue("JEDI"))]) {
    ///     Field("hero", arguments: ["episode": .variable("episode")]) { "name" }
    /// }
    /// ```
    public static func query(
        _ name: String? = nil, variables: [VariableDefinition] = [], directives: [Directive] = [],
        @SelectionSetBuilder selections: () -> [Selection]
    ) -> OperationDefinition {
        OperationDefinition(.query, name: name, variables: variables, directives: directives, selections: selections())
    }

    /// A mutation: `mutation CreateReview($review: ReviewInput!) { … }`.
    public static func mutation(
        _ name: String? = nil, variables: [VariableDefinition] = [], directives: [Directive] = [],
        @SelectionSetBuilder selections: () -> [Selection]
    ) -> OperationDefinition {
        OperationDefinition(.mutation, name: name, variables: variables, directives: directives, selections: selections())
    }

    /// A subscription: `subscription OnReview { … }`.
    public static func subscription(
        _ name: String? = nil, variables: [VariableDefinition] = [], directives: [Directive] = [],
        @SelectionSetBuilder selections: () -> [Selection]
    ) -> OperationDefinition {
        OperationDefinition(
            .subscription, name: name, variables: variables, directives: directives, selections: selections())
    }
}

extension Field {
    /// A field with sub-selections from a builder block.
    ///
    /// ```swift
    /// Field("friends") { "name" }                        // friends {\n  name\n}
    /// ```
    public init(
        _ name: String, alias: String? = nil, arguments: [Argument] = [], directives: [Directive] = [],
        @SelectionSetBuilder selections: () -> [Selection]
    ) {
        self.init(name, alias: alias, arguments: arguments, directives: directives, selections: selections())
    }

    /// A field whose arguments are written as a dictionary literal, in order.
    ///
    /// ```swift
    /// Field("height", arguments: ["unit": .enumValue("FOOT")])   // height(unit: FOOT)
    /// ```
    public init(
        _ name: String, alias: String? = nil, arguments: KeyValuePairs<String, InputValue>,
        directives: [Directive] = [], selections: [Selection] = []
    ) {
        self.init(
            name, alias: alias, arguments: arguments.map { Argument($0.key, $0.value) }, directives: directives,
            selections: selections)
    }

    /// A field with dictionary-literal arguments and sub-selections from a builder block.
    ///
    /// ```swift
    /// Field("human", arguments: ["id": "1000"]) { "name" }   // human(id: "1000") {\n  name\n}
    /// ```
    public init(
        _ name: String, alias: String? = nil, arguments: KeyValuePairs<String, InputValue>,
        directives: [Directive] = [], @SelectionSetBuilder selections: () -> [Selection]
    ) {
        self.init(name, alias: alias, arguments: arguments, directives: directives, selections: selections())
    }
}

extension InlineFragment {
    /// An inline fragment from a builder block.
    ///
    /// ```swift
    /// InlineFragment(on: "Droid") { "primaryFunction" }   // ... on Droid {\n  primaryFunction\n}
    /// ```
    public init(
        on typeCondition: String? = nil, directives: [Directive] = [], @SelectionSetBuilder selections: () -> [Selection]
    ) {
        self.init(on: typeCondition, directives: directives, selections: selections())
    }
}

extension FragmentDefinition {
    /// A named fragment from a builder block.
    ///
    /// ```swift
    /// FragmentDefinition("comparisonFields", on: "Character") { "name"; Field("friends") { "name" } }
    /// ```
    public init(
        _ name: String, on typeCondition: String, directives: [Directive] = [],
        @SelectionSetBuilder selections: () -> [Selection]
    ) {
        self.init(name, on: typeCondition, directives: directives, selections: selections())
    }
}

extension Directive {
    /// A directive whose arguments are written as a dictionary literal.
    ///
    /// ```swift
    /// Directive("deprecated", arguments: ["reason": "use name"])   // @deprecated(reason: "use name")
    /// ```
    public init(_ name: String, arguments: KeyValuePairs<String, InputValue>) {
        self.init(name, arguments: arguments.map { Argument($0.key, $0.value) })
    }

    /// `@include(if: …)`: `.include(if: .variable("withFriends"))` prints `@include(if: $withFriends)`.
    public static func include(if condition: InputValue) -> Directive {
        Directive("include", arguments: [Argument("if", condition)])
    }

    /// `@skip(if: …)`: `.skip(if: true)` prints `@skip(if: true)`.
    public static func skip(if condition: InputValue) -> Directive {
        Directive("skip", arguments: [Argument("if", condition)])
    }
}
