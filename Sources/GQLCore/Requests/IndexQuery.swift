/// The order of an index query's results by the index's sort key (`sortDirection: ModelSortDirection`).
public enum SortDirection: String, Sendable, Equatable, CaseIterable {
    case asc = "ASC"
    case desc = "DESC"
}

extension RequestBuilder {
    /// `query CommentsByPostId($filter: ModelCommentFilterInput, $limit: Int[, $nextToken: String], $postId: ID!) {
    /// commentsByPostId(…) { items { … } nextToken } }`: one page of a secondary-index query.
    public func indexList(
        _ model: String, index: String, filter: FilterInput = .none, sortDirection: SortDirection? = nil,
        limit: Int = Defaults.pageSize, nextToken: String? = nil, include: [String] = []
    ) throws(RequestBuildError) -> GraphQLRequest {
        try indexPages(model, index: index, filter: filter, sortDirection: sortDirection, include: include)
            .request(limit: limit, nextToken: nextToken)
    }

    /// The parts of a query through the secondary index named `index` (its `queryField`, or its name),
    /// checked once, for a pager. On DynamoDB this is a Query on the index, not a Scan of the table.
    ///
    /// The `--where` clauses are split between the key arguments and the filter:
    /// - The first `=` clause on the index's partition-key field (or the belongsTo that stores it)
    ///   becomes the partition-key argument; without one the request is an error.
    /// - With one sort-key field, the first clause on it with `= < <= > >= ^= LOW..HIGH` becomes the
    ///   key condition (`title: {beginsWith: "x"}`); `^=` only for String and ID keys, and Boolean
    ///   keys never (the server's key condition for them takes strings).
    /// - With a composite sort key, `=` clauses on a leading run of its fields become
    ///   `beginsWith: {field1: …, field2: …}` on the joined key, which only narrows the read: the key
    ///   joins values with `#`, so `3` would also match `30#…`. Those clauses therefore stay in the
    ///   filter too, which makes the result exact.
    /// - Everything else, and `--filter`, stays in `filter`, in the order given.
    public func indexPages(
        _ model: String, index: String, filter: FilterInput = .none, sortDirection: SortDirection? = nil,
        include: [String] = [], fields: FieldSelection = .all
    ) throws(RequestBuildError) -> ListRequests {
        let model = try self.model(named: model)
        let (index, queryField) = try queryableIndex(index, of: model)
        let parts = try FilterBuilder(schema: schema, model: model, purpose: .filter).parts(filter)
        var split = IndexKeySplit(model: model, index: index, queryField: queryField)
        try split.take(parts)
        var fixed = split.variables
        if let sortDirection {
            fixed.append(Variable("sortDirection", .named("ModelSortDirection"), .string(sortDirection.rawValue)))
        }
        return try connectionPages(
            model, root: queryField, filter: FilterBuilder.combine(split.filter), fixed: fixed, include: include, fields: fields)
    }

    /// The index whose `queryField` or name is `name`, and its query field.
    func queryableIndex(_ name: String, of model: Model) throws(RequestBuildError) -> (SecondaryIndex, String) {
        let queryable = model.indexes.compactMap(\.queryField)
        guard let index = model.indexes.first(where: { $0.queryField == name })
            ?? model.indexes.first(where: { $0.name == name })
        else {
            let names = queryable + model.indexes.filter { $0.queryField != nil }.map(\.name)
            throw .unknownIndex(
                name, model: model.name, queryable: queryable, suggestion: Suggestions.closest(to: name, in: names))
        }
        guard let queryField = index.queryField, !index.fields.isEmpty else {
            throw .indexNotQueryable(index.name, model: model.name, queryable: queryable)
        }
        return (index, queryField)
    }
}

/// Splits resolved `--where` parts into an index query's key arguments and its remaining filter.
struct IndexKeySplit {
    let model: Model
    let index: SecondaryIndex
    let queryField: String
    /// The key variables: the partition key, and the sort-key condition when there is one.
    private(set) var variables: [RequestBuilder.Variable] = []
    /// The filter parts left, in order.
    private(set) var filter: [JSONValue] = []

    init(model: Model, index: SecondaryIndex, queryField: String) {
        self.model = model
        self.index = index
        self.queryField = queryField
    }

    private var partitionKey: String { index.fields[0] }
    private var sortKeys: [String] { Array(index.fields.dropFirst()) }

    mutating func take(_ parts: [FilterPart]) throws(RequestBuildError) {
        var partition: JSONValue?
        var condition: JSONValue?
        let single = sortKeys.count == 1 ? sortKeys.first.flatMap(singleKeyConditionType) : nil
        for part in parts {
            guard let clause = part.clause else {
                filter.append(part.object)
                continue
            }
            if partition == nil, clause.field == partitionKey, clause.op == .eq, !clause.operand.isNull {
                partition = clause.operand
            } else if let single, condition == nil, clause.field == sortKeys.first,
                      Self.keyOperators(for: single).contains(clause.op), !clause.operand.isNull {
                condition = [clause.op.inputName: clause.operand]
            } else {
                filter.append(part.object)
            }
        }
        guard let partition else {
            throw .indexNeedsPartitionKey(queryField: queryField, field: partitionKey)
        }
        let partitionType = model.field(named: partitionKey)?.type.description ?? "ID"
        variables.append(RequestBuilder.Variable(partitionKey, .nonNull(.named(partitionType)), partition))
        if let single, let condition {
            variables.append(RequestBuilder.Variable(sortArgument, .named(single), condition))
        } else if sortKeys.count > 1, let prefix = compositePrefix(parts) {
            let type = "Model\(model.name)\(index.name.uppercasedFirst)CompositeKeyConditionInput"
            variables.append(RequestBuilder.Variable(sortArgument, .named(type), ["beginsWith": .object(prefix)]))
        }
    }

    /// The sort-key argument: the field, or the camelCase join of a composite key's fields.
    private var sortArgument: String {
        (sortKeys.first ?? "") + sortKeys.dropFirst().map(\.uppercasedFirst).joined()
    }

    /// `=` values for a leading run of the composite sort key's fields, or nil when the first has none
    /// (or the index name cannot be part of a type name, so the server has no condition type for it).
    private func compositePrefix(_ parts: [FilterPart]) -> JSONObject? {
        guard GraphQLName.isValid(index.name) else { return nil }
        var prefix = JSONObject()
        for key in sortKeys {
            guard let clause = parts.lazy.compactMap(\.clause).first(where: {
                $0.field == key && $0.op == .eq && !$0.operand.isNull
            }) else { break }
            prefix[key] = clause.operand
        }
        return prefix.isEmpty ? nil : prefix
    }

    /// `Model<T>KeyConditionInput` for a single sort-key field, as the transformer names it: ID, Int
    /// (also AWSTimestamp), Float, else String (enums and string-like AWS scalars); nil for Boolean.
    private func singleKeyConditionType(_ field: String) -> String? {
        guard let type = model.field(named: field)?.type else { return nil }
        let base: String
        switch type {
        case .scalar("Boolean"), .nonModel, .model, .input: return nil
        case .scalar("ID"): base = "ID"
        case .scalar("Int"), .scalar("AWSTimestamp"): base = "Int"
        case .scalar("Float"): base = "Float"
        case .scalar, .enumeration: base = "String"
        }
        return "Model\(base)KeyConditionInput"
    }

    /// The operators a key condition of this type takes.
    private static func keyOperators(for type: String) -> [WhereOperator] {
        let ordering: [WhereOperator] = [.eq, .lt, .le, .gt, .ge, .between]
        return type == "ModelStringKeyConditionInput" || type == "ModelIDKeyConditionInput"
            ? ordering + [.beginsWith] : ordering
    }
}
