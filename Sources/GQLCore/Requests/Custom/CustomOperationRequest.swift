/// Requests for the schema's custom queries, mutations and subscriptions (`a.query()`, `a.mutation()`,
/// `a.subscription()` in Gen 2; `type Query { … }` fields in Gen 1):
///
/// ```
/// query Echo($argumentContent: String!) {
///   echo(argumentContent: $argumentContent) {
///     resultContent
///     __typename
///   }
/// }
/// ```
///
/// - Every argument the schema declares is a variable of its schema type (`[ID!]!`, `ProductInput`), declared
///   whether given or not, so the document depends on the operation only; values travel as variables.
/// - The selection follows the result type: a model gets the depth-0 set of `get` (with `include`), an
///   embedded type all of its fields, recursively, with `__typename`; a scalar or enum, or a list of them, none.
extension RequestBuilder {
    /// The custom operation of `kind` named `name`, or an error that suggests the closest name.
    public func customOperation(_ name: String, kind: CustomOperation.Kind) throws(RequestBuildError) -> CustomOperation {
        let candidates = schema.customOperations.filter { $0.kind == kind }
        if let operation = candidates.first(where: { $0.name == name }) { return operation }
        if let other = schema.customOperations.first(where: { $0.name == name }) {
            throw .operationKindMismatch(name, actual: other.kind.rawValue, expected: kind.rawValue)
        }
        if let reason = schema.leftOutOperations[name] { throw .operationLeftOut(name, reason: reason) }
        let names = candidates.map(\.name)
        throw .unknownOperation(name, kind: kind.rawValue, suggestion: Suggestions.closest(to: name, in: names), available: names)
    }

    /// The request for a custom operation, with `arguments` (`name=value`, `name:=JSON`, an input object)
    /// checked against its declared arguments and converted by their types. `fields` narrows a model or embedded
    /// result's selection, as it does a get's.
    public func custom(
        _ name: String, kind: CustomOperation.Kind, arguments: RecordValues = RecordValues(), include: [String] = [],
        fields: FieldSelection = .all
    ) throws(RequestBuildError) -> GraphQLRequest {
        let operation = try customOperation(name, kind: kind)
        let values = try CustomArgumentResolver(schema: schema, operation: operation).resolve(arguments)
        let selections = try customSelections(operation, include: include, fields: fields)
        let variables = operation.arguments.map { Variable($0.name, $0.typeReference, values[$0.name]) }
        let type: OperationType
        switch kind {
        case .query: type = .query
        case .mutation: type = .mutation
        case .subscription: type = .subscription
        }
        return Self.request(type, root: operation.name, variables: variables, selections: selections)
    }

    /// The include tree of a custom operation that returns a model; empty for any other result.
    public func customIncludeTree(_ operation: CustomOperation, paths: [String]) throws(RequestBuildError) -> IncludeTree {
        guard case .model(let name) = operation.result.type else {
            if paths.isEmpty { return IncludeTree() }
            throw RequestBuildError.includeNeedsModel(operation: operation.name, result: operation.result.graphQLType).about(.include, paths[0])
        }
        return try IncludeTree.resolve(paths, from: try model(named: name), in: schema)
    }

    private func customSelections(
        _ operation: CustomOperation, include: [String], fields: FieldSelection
    ) throws(RequestBuildError) -> [Selection] {
        let builder = SelectionBuilder(schema: schema)
        switch operation.result.type {
        case .model(let name):
            let tree = try customIncludeTree(operation, paths: include)
            return try builder.modelSelections(try model(named: name), include: tree, fields: fields)
        case .nonModel(let name):
            _ = try customIncludeTree(operation, paths: include)
            guard builder.embeddedSelections(name, visiting: []) != nil else {
                throw .unknownType(name, operation: operation.name)
            }
            return try builder.embeddedSelections(name, fields: fields)
        case .scalar, .enumeration, .input:
            _ = try customIncludeTree(operation, paths: include)
            if case .paths(let paths) = fields, let path = paths.first {
                throw RequestBuildError.syntax(
                    "\(operation.name) returns \(operation.result.graphQLType), which has no fields to select"
                ).about(.fields, path)
            }
            return []
        }
    }
}

extension ModelField {
    /// The field's GraphQL type as a variable's type: `String!`, `[ID!]!`, `[Float]`.
    var typeReference: TypeReference {
        let base = TypeReference.named(type.description)
        let element = isRequired ? .nonNull(base) : base
        guard isArray else { return element }
        return isArrayNullable ? .list(element) : .nonNull(.list(element))
    }

    /// Whether a value must be given: a non-null scalar, or a list that may not itself be null.
    public var isMandatoryArgument: Bool { isArray ? !isArrayNullable : isRequired }
}
