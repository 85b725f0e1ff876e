/// A model subscription's event.
public enum SubscriptionEvent: String, Sendable, Equatable, CaseIterable {
    case onCreate, onUpdate, onDelete
}

/// Builds the GraphQL requests that Amplify Swift's `GraphQLRequest` builders produce for a model schema,
/// as an AST printed by ``DocumentPrinter``:
///
/// ```
/// query GetPost($id: ID!) {
///   getPost(id: $id) {
///     id
///     …
///     __typename
///   }
/// }
/// ```
///
/// - The operation name is the root field with its first letter upper-cased; renamed operations in
///   ``Model/operations`` are honoured and a disabled one is an error.
/// - Variables are sorted by name in the header, in the arguments and in the `variables` object
///   (and in `input`). Values are never pasted into the document text.
/// - Optional variables follow Amplify Swift: `$condition` (update, delete), `$filter` and `$nextToken` (list)
///   are declared only when sent.
/// - Selections follow ``SelectionBuilder``; `--include` applies to get and list.
public struct RequestBuilder: Sendable {
    public let schema: ModelSchema
    private let makeID: @Sendable () -> String

    /// - Parameter makeID: generates the `id` of a create whose model has the default `id` key and
    ///   was given none, as Amplify does (`UUID().uuidString`), so that a retried create cannot duplicate.
    public init(schema: ModelSchema, makeID: @escaping @Sendable () -> String = { RandomUUID.string() }) {
        self.schema = schema
        self.makeID = makeID
    }

    /// The model named `name`, or an error suggesting the closest name.
    public func model(named name: String) throws(RequestBuildError) -> Model {
        guard let model = schema.models[name] else {
            throw .unknownModel(name, suggestion: Suggestions.closest(to: name, in: schema.modelNames))
        }
        return model
    }

    /// The include tree of `--include` paths on `model`; the CLI hands it to ``ConnectionCompleter``.
    public func includeTree(_ model: String, paths: [String]) throws(RequestBuildError) -> IncludeTree {
        try IncludeTree.resolve(paths, from: try self.model(named: model), in: schema)
    }

    // MARK: Queries

    /// `query GetPost($id: ID!) { getPost(id: $id) { … } }`; variables are the key values.
    /// `fields` narrows the selection (key fields are always selected).
    public func get(
        _ model: String, key: KeyInput, include: [String] = [], fields: FieldSelection = .all
    ) throws(RequestBuildError) -> GraphQLRequest {
        let model = try self.model(named: model)
        let root = try operation(model.operations.get, "get", of: model)
        let keys = try key.resolve(for: model, schema: schema)
        let tree = try IncludeTree.resolve(include, from: model, in: schema)
        let selections = try SelectionBuilder(schema: schema).modelSelections(model, include: tree, fields: fields)
        return Self.request(
            .query, root: root, variables: keyVariables(model, keys), selections: selections)
    }

    /// `query ListPosts([$filter: ModelPostFilterInput, ]$limit: Int[, $nextToken: String]) { listPosts(…) { items { … } nextToken } }`.
    public func list(
        _ model: String, filter: FilterInput = .none, limit: Int = Defaults.pageSize, nextToken: String? = nil,
        include: [String] = []
    ) throws(RequestBuildError) -> GraphQLRequest {
        try listPages(model, filter: filter, include: include).request(limit: limit, nextToken: nextToken)
    }

    /// The list query's parts, checked once, for a pager that asks for one page after another.
    /// `fields` narrows each item's selection: `.keysOnly` pages cheaply for a count.
    public func listPages(
        _ model: String, filter: FilterInput = .none, include: [String] = [], fields: FieldSelection = .all
    ) throws(RequestBuildError) -> ListRequests {
        let model = try self.model(named: model)
        let root = try operation(model.operations.list, "list", of: model)
        let filterValue = try FilterBuilder(schema: schema, model: model, purpose: .filter).build(filter)
        return try connectionPages(model, root: root, filter: filterValue, include: include, fields: fields)
    }

    /// `sync<Plural>(filter:, limit:, nextToken:, lastSync:)` of a model with conflict detection, selecting
    /// `startedAt` with the page: the records changed since `lastSync` (milliseconds), soft-deleted ones included,
    /// or every record without it.
    public func syncPages(_ model: String, filter: FilterInput = .none, lastSync: Int?) throws(RequestBuildError) -> ListRequests {
        let model = try self.model(named: model)
        let root = ConflictDetection.syncQuery(of: model)
        let filterValue = try FilterBuilder(schema: schema, model: model, purpose: .filter).build(filter)
        let fixed = lastSync.map { [Variable("lastSync", .named("AWSTimestamp"), .number(JSONNumber($0)))] } ?? []
        return try connectionPages(
            model, root: root, filter: filterValue, fixed: fixed, include: [], fields: .all, connectionExtras: ["startedAt"])
    }

    /// A paged connection query: `$filter` declared only when there is a filter (as Amplify Swift's
    /// `FilterDecorator`, added only `if let filter`), `$limit`, `$nextToken` when sent, plus `fixed` variables
    /// (declared, and sent on every page).
    func connectionPages(
        _ model: Model, root: String, filter: JSONValue?, fixed: [Variable] = [], include: [String], fields: FieldSelection,
        connectionExtras: [String] = []
    ) throws(RequestBuildError) -> ListRequests {
        let tree = try IncludeTree.resolve(include, from: model, in: schema)
        let selections = try SelectionBuilder(schema: schema).connectionSelections(model, include: tree, fields: fields)
            + connectionExtras.map { .field(Field($0)) }
        var variables = fixed + [Variable("limit", .named("Int"), nil)]
        if let filter { variables.append(Variable("filter", .named("Model\(model.name)FilterInput"), filter)) }
        let withoutToken = Self.request(.query, root: root, variables: variables, selections: selections).query
        variables.append(Variable("nextToken", .named("String"), nil))
        let withToken = Self.request(.query, root: root, variables: variables, selections: selections).query
        var fixedValues = JSONObject()
        for variable in fixed { if let value = variable.value { fixedValues[variable.name] = value } }
        return ListRequests(
            rootField: root, queryWithoutToken: withoutToken, queryWithToken: withToken, filter: filter,
            fixedVariables: fixedValues)
    }

    // MARK: Mutations

    /// `mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) { … } }`.
    ///
    /// The input holds the given fields only (read-only fields are never sent). A model keyed by `id`
    /// that was given none gets a generated UUID; other key fields must all be given. `fields` narrows
    /// what the mutation returns, as for a get.
    public func create(_ model: String, values: RecordValues, fields: FieldSelection = .all) throws(RequestBuildError) -> GraphQLRequest {
        let model = try self.model(named: model)
        let root = try operation(model.operations.create, "create", of: model)
        var input = try RecordValueResolver(schema: schema, model: model, isUpdate: false).resolve(values)
        let missing = RequiredFields(schema: schema, model: model).missing(in: input)
        if !missing.isEmpty {
            throw .missingRequiredFields(model: model.name, fields: missing.map { "'\($0.field)' (\($0.type))" })
        }
        if model.primaryKey.isDefaultID {
            if input["id"] == nil || input["id"] == .null { input["id"] = .string(makeID()) }
        } else {
            for name in model.primaryKey.fields where input[name] == nil || input[name] == .null {
                throw .missingKeyField(name, model: model.name, keyFields: model.primaryKey.fields)
            }
        }
        let variables = [Variable("input", .nonNull(.named("Create\(model.name.uppercasedFirst)Input")), .object(Self.sorted(input)))]
        return Self.request(.mutation, root: root, variables: variables, selections: try depthZero(model, fields))
    }

    /// `mutation UpdatePost([$condition: ModelPostConditionInput, ]$input: UpdatePostInput!) { … }`.
    ///
    /// The input holds the key fields and the given fields only, never nulls for fields not mentioned; a null for a
    /// non-null field is refused (AppSync's update input would take it, and the record could no longer be read).
    /// With `key` nil, the key fields are taken from `values.input`; key values given twice must agree.
    /// `version` is the record's `_version` a model with conflict detection needs (nil sends none).
    public func update(
        _ model: String, key: KeyInput?, values: RecordValues, condition: FilterInput = .none, fields: FieldSelection = .all,
        version: Int? = nil
    ) throws(RequestBuildError) -> GraphQLRequest {
        let model = try self.model(named: model)
        let root = try operation(model.operations.update, "update", of: model)
        var input = try RecordValueResolver(schema: schema, model: model, isUpdate: true).resolve(values)
        let nulled = RequiredFields(schema: schema, model: model).nulled(in: input)
        if !nulled.isEmpty {
            throw .requiredFieldsNulled(model: model.name, fields: nulled.map { "'\($0.field)' (\($0.type))" })
        }
        let keys: JSONObject
        if let key {
            keys = try key.resolve(for: model, schema: schema)
            for member in keys {
                if let given = input[member.key], given != member.value { throw .conflictingKeyValue(member.key) }
            }
        } else {
            guard model.primaryKey.fields.allSatisfy({ input[$0].map { !$0.isNull } ?? false }) else {
                throw .keyRequired(model: model.name, keyFields: model.primaryKey.fields)
            }
            keys = try KeyInput.values(input).resolve(for: model, schema: schema)
        }
        for member in keys { input[member.key] = member.value }
        if let version { input[ConflictDetection.versionField] = .number(JSONNumber(version)) }
        return try mutation(
            model, root: root, inputType: "Update\(model.name.uppercasedFirst)Input", input: input, condition: condition,
            fields: fields)
    }

    /// `mutation DeletePost([$condition: ModelPostConditionInput, ]$input: DeletePostInput!) { … }`; the input is the key
    /// (and `version`, the record's `_version`, for a model with conflict detection).
    public func delete(
        _ model: String, key: KeyInput, condition: FilterInput = .none, fields: FieldSelection = .all, version: Int? = nil
    ) throws(RequestBuildError) -> GraphQLRequest {
        let model = try self.model(named: model)
        let root = try operation(model.operations.delete, "delete", of: model)
        var keys = try key.resolve(for: model, schema: schema)
        if let version { keys[ConflictDetection.versionField] = .number(JSONNumber(version)) }
        return try mutation(
            model, root: root, inputType: "Delete\(model.name.uppercasedFirst)Input", input: keys, condition: condition,
            fields: fields)
    }

    private func mutation(
        _ model: Model, root: String, inputType: String, input: JSONObject, condition: FilterInput, fields: FieldSelection
    ) throws(RequestBuildError) -> GraphQLRequest {
        let conditionValue = try FilterBuilder(schema: schema, model: model, purpose: .condition).build(condition)
        var variables = [Variable("input", .nonNull(.named(inputType)), .object(Self.sorted(input)))]
        if let conditionValue {
            variables.append(Variable("condition", .named("Model\(model.name)ConditionInput"), conditionValue))
        }
        return Self.request(.mutation, root: root, variables: variables, selections: try depthZero(model, fields))
    }

    // MARK: Subscriptions

    /// `subscription OnCreatePost[($filter: ModelSubscriptionPostFilterInput)] { onCreatePost[(filter: $filter)] { … } }`:
    /// the depth-0 selection of Amplify Swift's model subscriptions, plus the `include` paths.
    public func subscription(
        _ model: String, event: SubscriptionEvent, filter: FilterInput = .none, include: [String] = []
    ) throws(RequestBuildError) -> GraphQLRequest {
        let model = try self.model(named: model)
        let name: String?
        switch event {
        case .onCreate: name = model.operations.onCreate
        case .onUpdate: name = model.operations.onUpdate
        case .onDelete: name = model.operations.onDelete
        }
        let root = try operation(name, event.rawValue, of: model)
        let filterValue = try FilterBuilder(schema: schema, model: model, purpose: .subscription).build(filter)
        let variables = filterValue.map { [Variable("filter", .named("ModelSubscription\(model.name)FilterInput"), $0)] } ?? []
        let tree = try IncludeTree.resolve(include, from: model, in: schema)
        let selections = try SelectionBuilder(schema: schema).modelSelections(model, include: tree)
        return Self.request(.subscription, root: root, variables: variables, selections: selections)
    }

    // MARK: Included lists

    /// The next page of an included hasMany list, fetched through the parent's get:
    /// `query GetPost($id: ID!, $limit: Int, $nextToken: String) { getPost(id: $id) { comments(limit: $limit, nextToken: $nextToken) { items { … } nextToken } __typename } }`.
    ///
    /// - Parameters:
    ///   - parentKey: the parent's key values as fetched (key fields are always selected).
    ///   - include: what is included below `field` (its branch's subtree).
    ///   - fields: the fields selected below `field` (``FieldSelection/below(_:)`` of the first request's).
    /// The decode path is `[getPost, comments]`.
    public func connectionPage(
        parent: String, key parentKey: JSONObject, field: String, include: IncludeTree, fields: FieldSelection = .all,
        limit: Int = Defaults.pageSize, nextToken: String
    ) throws(RequestBuildError) -> GraphQLRequest {
        guard limit >= 1 else { throw .invalidLimit(limit) }
        let model = try self.model(named: parent)
        let root = try operation(model.operations.get, "get", of: model)
        let associations = model.relationshipFields.map(\.name)
        guard let listField = model.field(named: field) else {
            throw .unknownAssociation(field, model: model.name, suggestion: Suggestions.closest(to: field, in: associations),
                                      associations: associations)
        }
        guard let relation = schema.relationship(of: listField), relation.kind == .hasMany else {
            throw .notARelationship(field: field, model: model.name, associations: associations)
        }
        let related = try self.model(named: relation.relatedModel)
        let keys = try KeyInput.values(parentKey).resolve(for: model, schema: schema)
        let connection = Field(
            field, arguments: [Argument("limit", .variable("limit")), Argument("nextToken", .variable("nextToken"))],
            selections: try SelectionBuilder(schema: schema).connectionSelections(related, include: include, fields: fields))
        let keyVariables = keyVariables(model, keys)
        let rootField = Field(
            root, arguments: keyVariables.sorted { $0.name < $1.name }.map { Argument($0.name, .variable($0.name)) },
            selections: [.field(connection), .field(Field("__typename"))])
        let variables = keyVariables + [Variable("limit", .named("Int"), .number(JSONNumber(limit))),
                                        Variable("nextToken", .named("String"), .string(nextToken))]
        var request = Self.request(.query, rootField: rootField, variables: variables)
        request.decodePath = [root, field]
        return request
    }

    // MARK: Assembly

    /// A declared variable and the value sent for it (nil: declared but not sent).
    struct Variable {
        var name: String
        var type: TypeReference
        var value: JSONValue?
        init(_ name: String, _ type: TypeReference, _ value: JSONValue?) {
            self.name = name
            self.type = type
            self.value = value
        }
    }

    private func operation(_ name: String?, _ operation: String, of model: Model) throws(RequestBuildError) -> String {
        guard let name else { throw .operationDisabled(model: model.name, operation: operation) }
        return name
    }

    /// What a create, update or delete of `model` returns: its depth-0 fields, narrowed to `fields`.
    private func depthZero(_ model: Model, _ fields: FieldSelection = .all) throws(RequestBuildError) -> [Selection] {
        do {
            return try SelectionBuilder(schema: schema).modelSelections(model, include: IncludeTree(), fields: fields)
        } catch .argument(let parameter, let text, .notIncluded(let field, let model, _)) {
            // There is nothing to include: a mutation's result has no associations.
            throw .argument(parameter, text: text, error: .notInMutationResult(field: field, model: model))
        }
    }

    /// Checks `fields` against what a create, update or delete of `model` returns, before a bulk job builds its requests.
    public func checkMutationFields(_ model: String, fields: FieldSelection) throws(RequestBuildError) {
        _ = try depthZero(try self.model(named: model), fields)
    }

    /// One variable per key field, typed as the field, non-null.
    private func keyVariables(_ model: Model, _ keys: JSONObject) -> [Variable] {
        model.keyFields.map { Variable($0.name, .nonNull(.named($0.type.description)), keys[$0.name]) }
    }

    /// A request whose root field takes every variable as the argument of the same name.
    static func request(
        _ type: OperationType, root: String, variables: [Variable], selections: [Selection]
    ) -> GraphQLRequest {
        let arguments = variables.sorted { $0.name < $1.name }.map { Argument($0.name, .variable($0.name)) }
        return request(type, rootField: Field(root, arguments: arguments, selections: selections), variables: variables)
    }

    /// A one-operation request: variables sorted by name; the name is the root field upper-cased.
    static func request(_ type: OperationType, rootField: Field, variables: [Variable]) -> GraphQLRequest {
        let sorted = variables.sorted { $0.name < $1.name }
        let operation = OperationDefinition(
            type, name: rootField.name.uppercasedFirst,
            variables: sorted.map { VariableDefinition($0.name, type: $0.type) },
            selections: [.field(rootField)])
        var values = JSONObject()
        for variable in sorted { if let value = variable.value { values[variable.name] = value } }
        return GraphQLRequest(
            query: Document(operations: [operation]).printed(), variables: values, operationType: type,
            decodePath: [rootField.name])
    }

    /// The object with its members sorted by key.
    static func sorted(_ object: JSONObject) -> JSONObject {
        JSONObject(object.members.sorted { $0.key < $1.key })
    }
}

/// A list query's parts, checked and printed once; ``request(limit:nextToken:)`` makes each page's request cheaply.
public struct ListRequests: Sendable, Equatable {
    /// The root field (`listPosts`), also the decode path.
    public let rootField: String
    let queryWithoutToken: String
    let queryWithToken: String
    /// The filter object sent on every page, if any.
    public let filter: JSONValue?
    /// Other variables sent on every page: an index query's key, key condition and sort direction.
    let fixedVariables: JSONObject

    init(rootField: String, queryWithoutToken: String, queryWithToken: String, filter: JSONValue?, fixedVariables: JSONObject = [:]) {
        self.rootField = rootField
        self.queryWithoutToken = queryWithoutToken
        self.queryWithToken = queryWithToken
        self.filter = filter
        self.fixedVariables = fixedVariables
    }

    /// What identifies the listing, whatever the page: a hash of the root field, the filter and the other
    /// variables sent on every page. A resume point inside a page is valid only for the same listing.
    public var listingKey: String {
        let identity: JSONValue = [
            "f": filter ?? .null, "k": .object(fixedVariables), "r": .string(rootField),
        ]
        return Array(SHA256.hash(identity.serialized(.compact)).prefix(8)).hexString
    }

    /// The request for one page; `$nextToken` is declared only when a token is sent.
    public func request(limit: Int = Defaults.pageSize, nextToken: String? = nil) throws(RequestBuildError) -> GraphQLRequest {
        guard limit >= 1 else { throw .invalidLimit(limit) }
        return page(limit: limit, nextToken: nextToken)
    }

    /// The request for one page of a pager, which never asks for fewer than one item.
    public func page(limit: Int, nextToken: String?) -> GraphQLRequest {
        let limit = max(1, limit)
        var members = fixedVariables.members
        if let filter { members.append(.init(key: "filter", value: filter)) }
        members.append(.init(key: "limit", value: .number(JSONNumber(limit))))
        if let nextToken { members.append(.init(key: "nextToken", value: .string(nextToken))) }
        return GraphQLRequest(
            query: nextToken == nil ? queryWithoutToken : queryWithToken,
            variables: JSONObject(members.sorted { $0.key < $1.key }),
            operationType: .query, decodePath: [rootField])
    }
}
