/// What a filter object is sent as; each has its own AppSync input type and operators.
public enum FilterPurpose: Sendable, Equatable {
    /// `filter: Model<M>FilterInput` of a list query.
    case filter
    /// `condition: Model<M>ConditionInput` of a mutation: the same, minus the key fields.
    case condition
    /// `filter: ModelSubscription<M>FilterInput` of a subscription: no `attributeExists`.
    case subscription

    /// What expressions of this filter are given as, for error messages.
    var expressionParameter: Parameter { self == .condition ? .condition : .filter }
    /// What a JSON object of this filter is given as.
    var objectParameter: Parameter { self == .condition ? .condition : .filterObject }
}

/// Filter arguments as given on the command line: `--where`/`--if` expressions and an optional `--filter` object.
public struct FilterInput: Sendable, Equatable {
    /// Expression texts, AND-ed in this order.
    public var expressions: [String]
    /// A filter object passed as it is (`--filter JSON`); AND-ed before the expressions.
    public var json: JSONValue?

    public init(where expressions: [String] = [], json: JSONValue? = nil) {
        self.expressions = expressions
        self.json = json
    }

    /// No filter at all.
    public static let none = FilterInput()
    public var isEmpty: Bool { expressions.isEmpty && json == nil }
}

/// One `--where` expression resolved against a model: `field` is the stored field (a belongsTo's foreign key).
struct FilterClause: Sendable, Equatable {
    var field: String
    var op: WhereOperator
    /// The coerced value (`true`/`false` for `?`/`!?`, a two-element array for `between`).
    var operand: JSONValue
    /// The filter object: `{"field":{"op":operand}}`.
    var object: JSONValue { [field: [op.inputName: operand]] }
}

/// One part of a filter: the `--filter` object, or a resolved `--where` clause.
enum FilterPart: Sendable, Equatable {
    case json(JSONValue)
    case clause(FilterClause)

    /// The part as a filter object.
    var object: JSONValue {
        switch self {
        case .json(let object): object
        case .clause(let clause): clause.object
        }
    }

    /// The clause, when the part is one.
    var clause: FilterClause? {
        if case .clause(let clause) = self { clause } else { nil }
    }
}

/// Resolves `--where` / `--if` expressions against a model into an AppSync filter object.
///
/// One part gives `{"field":{"op":value}}`; several give `{"and":[…]}` in the order given.
/// A belongsTo field maps to its foreign key (`post=p1` → `{"postCommentsId":{"eq":"p1"}}`);
/// values are coerced by the field's type (see ``ValueCoercion``); `null` is JSON null for `=` and `!=`.
public struct FilterBuilder: Sendable {
    public let schema: ModelSchema
    public let model: Model
    public let purpose: FilterPurpose

    public init(schema: ModelSchema, model: Model, purpose: FilterPurpose = .filter) {
        self.schema = schema
        self.model = model
        self.purpose = purpose
    }

    /// The filter object for `input`, or nil when it is empty. Errors name the expression they are about.
    public func build(_ input: FilterInput) throws(RequestBuildError) -> JSONValue? {
        Self.combine(try parts(input).map(\.object))
    }

    /// `input` resolved part by part, in the order the filter AND-s them: the `--filter` object first.
    func parts(_ input: FilterInput) throws(RequestBuildError) -> [FilterPart] {
        var parts: [FilterPart] = []
        if let json = input.json {
            guard case .object = json else {
                throw RequestBuildError.notAnObject(found: json.kindDescription).about(purpose.objectParameter, nil)
            }
            do {
                try checkFields(json)
            } catch {
                throw error.about(purpose.objectParameter, nil)
            }
            parts.append(.json(json))
        }
        for text in input.expressions {
            do {
                try refuseDottedPath(text)
                parts.append(.clause(try clause(try WhereExpression.parse(text))))
            } catch {
                throw error.about(purpose.expressionParameter, text)
            }
        }
        return parts
    }

    /// Checks that a filter object names only fields its input type has (the model's own fields and the foreign keys
    /// it holds), through `and`, `or` and `not`: the server would refuse the request for an unknown one.
    private func checkFields(_ filter: JSONValue) throws(RequestBuildError) {
        guard case .object(let object) = filter else { return }
        var names = model.fields.filter { !$0.isRelationship }.map(\.name)
        for field in model.fields where field.isRelationship {
            if let relation = schema.relationship(of: field), relation.keyHolder == .thisModel { names += relation.foreignKeys }
        }
        for member in object {
            switch member.key {
            case "and", "or":
                for element in member.value.arrayValue ?? [] { try checkFields(element) }
            case "not":
                try checkFields(member.value)
            default:
                guard names.contains(member.key) else {
                    throw .unknownField(
                        member.key, type: model.name, suggestion: Suggestions.closest(to: member.key, in: names + ["and", "or", "not"]))
                }
            }
        }
    }

    /// The `=` expressions that test one field for different values: AND-ed, no record matches them all (`status=DRAFT`
    /// and `status=PUBLISHED`). Each entry is the expressions as given; expressions that do not resolve are skipped.
    public func contradictions(_ input: FilterInput) -> [[String]] {
        var byField: [(field: String, operands: [JSONValue], texts: [String])] = []
        for text in input.expressions {
            guard let expression = try? WhereExpression.parse(text), expression.op == .eq,
                  let clause = try? clause(expression)
            else { continue }
            if let index = byField.firstIndex(where: { $0.field == clause.field }) {
                byField[index].texts.append(text)
                if !byField[index].operands.contains(clause.operand) { byField[index].operands.append(clause.operand) }
            } else {
                byField.append((clause.field, [clause.operand], [text]))
            }
        }
        return byField.filter { $0.operands.count > 1 }.map(\.texts)
    }

    /// Nil for no parts, the part itself for one, else `{"and":[…]}` in order.
    static func combine(_ parts: [JSONValue]) -> JSONValue? {
        switch parts.count {
        case 0: return nil
        case 1: return parts[0]
        default: return ["and": .array(parts)]
        }
    }

    /// One expression as `{"field":{"op":value}}`.
    public func resolve(_ expression: WhereExpression) throws(RequestBuildError) -> JSONValue {
        try clause(expression).object
    }

    /// One expression checked and coerced: the stored field it tests, its operator and its operand.
    func clause(_ expression: WhereExpression) throws(RequestBuildError) -> FilterClause {
        let (target, field) = try filteredField(expression.field)
        if purpose == .condition && model.isKeyField(target) {
            throw .keyFieldInCondition(field: target, model: model.name)
        }
        guard let kind = schema.valueKind(of: field.type) else {
            throw .notFilterable(field: expression.field, model: model.name, reason: "the server's filter input has no entry for embedded types")
        }
        let supported = Self.operators(for: kind, isArray: field.isArray, purpose: purpose)
        guard supported.contains(expression.op) else {
            if purpose == .subscription,
               Self.operators(for: kind, isArray: field.isArray, purpose: .filter).contains(expression.op) {
                throw .notInSubscriptions(expression.op.symbol, supported: supported.map(\.symbol))
            }
            throw .unsupportedOperator(
                expression.op.symbol, field: expression.field,
                type: field.isArray ? "[\(field.type)]" : field.type.description, supported: supported.map(\.symbol))
        }
        // A field of the key's own name stands for the foreign key, typed as it.
        let typed = ModelField(name: expression.field, type: field.type)
        let value: JSONValue
        switch expression.op {
        case .exists: value = true
        case .notExists: value = false
        case .between:
            let low = try operand(expression.operands[0], typed, expression.op)
            let high = try operand(expression.operands[1], typed, expression.op)
            if Self.isEmptyRange(low, high) {
                throw .emptyRange(low: expression.operands[0], high: expression.operands[1], field: expression.field)
            }
            value = .array([low, high])
        case .beginsWith, .contains, .notContains:
            // A part of a value: the field's format does not apply (`createdAt^=2025-01`).
            value = try ValueCoercion.coerce(expression.operands.first ?? "", as: kind, allowNull: false)
        default:
            let text = expression.operands.first ?? ""
            do {
                value = try operand(text, typed, expression.op)
            } catch {
                if expression.op == .eq, let values = severalValues(text, typed) {
                    let anyOf: JSONValue? = purpose == .condition
                        ? nil : ["or": .array(values.map { [target: ["eq": $0]] })]
                    throw .severalValues(text, anyOf: anyOf)
                }
                throw error
            }
        }
        return FilterClause(field: target, op: expression.op, operand: value)
    }

    /// `DONE|STARTED` or `DONE,STARTED` for a field none of whose values can hold `|` or `,` as given: the values,
    /// when each is valid on its own.
    private func severalValues(_ text: String, _ field: ModelField) -> [JSONValue]? {
        for separator: Character in ["|", ","] where text.contains(separator) {
            let parts = text.split(separator: separator, omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            let values = parts.compactMap { try? ValueCoercion.coerce($0, for: field, schema: schema, allowNull: false) }
            if values.count == parts.count, values.count > 1 { return values }
        }
        return nil
    }

    /// One operand of a comparison: a date alone on an AWSDateTime field of an ordering comparison
    /// stands for the start of that day in UTC.
    private func operand(_ text: String, _ field: ModelField, _ op: WhereOperator) throws(RequestBuildError) -> JSONValue {
        if op != .eq && op != .ne, let expanded = Self.startOfDay(text, type: field.type) { return .string(expanded) }
        return try ValueCoercion.coerce(text, for: field, schema: schema, allowNull: op == .eq || op == .ne)
    }

    /// `2025-01-31` → `2025-01-31T00:00:00.000Z` for an AWSDateTime field; nil otherwise.
    static func startOfDay(_ text: String, type: FieldType) -> String? {
        guard type == .scalar(ScalarFormat.dateTime.rawValue), text.utf8.count == 10, ScalarFormat.date.accepts(text)
        else { return nil }
        return text + "T00:00:00.000Z"
    }

    /// What gqlc read differently from the text given, one line per expression: a date on an AWSDateTime
    /// field taken as the start of that day in UTC. For `--verbose`.
    public func notes(_ input: FilterInput) -> [String] {
        input.expressions.compactMap { text -> String? in
            guard let expression = try? WhereExpression.parse(text), expression.op != .eq, expression.op != .ne,
                  let field = model.field(named: expression.field)
            else { return nil }
            let expanded = expression.operands.compactMap { operand in
                Self.startOfDay(operand, type: field.type).map { "\(operand) as \($0)" }
            }
            guard !expanded.isEmpty else { return nil }
            return "'\(text)': " + expanded.joined(separator: ", ") + " (start of day, UTC)"
        }
    }

    /// True when LOW > HIGH as DynamoDB orders them: numbers by value, strings by their UTF-8 bytes.
    static func isEmptyRange(_ low: JSONValue, _ high: JSONValue) -> Bool {
        switch (low, high) {
        case (.number(let a), .number(let b)):
            if let x = a.int64Value, let y = b.int64Value { return x > y }
            guard let x = Double(a.text), let y = Double(b.text) else { return false }
            return x > y
        case (.string(let a), .string(let b)):
            return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) == false && a != b
        default:
            return false
        }
    }

    /// `blog.name=x`: filters test this model's own fields, and a relationship by its foreign key.
    private func refuseDottedPath(_ text: String) throws(RequestBuildError) {
        let name = GraphQLName.prefix(of: text)
        guard !name.isEmpty, text.unicodeScalars.dropFirst(name.unicodeScalars.count).first == "." else { return }
        var hint: String?
        if let field = model.field(named: name), field.isRelationship, let relation = schema.relationship(of: field),
           relation.keyHolder == .thisModel, relation.foreignKeys.count == 1, let key = relation.foreignKeys.first {
            hint = "\(name)=ID (the foreign key \(key))"
        }
        throw .dottedPath(name, model: model.name, hint: hint)
    }

    /// The stored field that `name` filters: the field itself, or a belongsTo's single foreign key.
    private func filteredField(_ name: String) throws(RequestBuildError) -> (String, ModelField) {
        guard let field = model.field(named: name) else {
            throw .unknownField(name, type: model.name, suggestion: Suggestions.closest(to: name, in: model.fields.map(\.name)))
        }
        guard field.isRelationship else { return (name, field) }
        guard let relation = schema.relationship(of: field), relation.keyHolder == .thisModel else {
            let related = schema.relationship(of: field)
            let keys = related?.foreignKeys.joined(separator: ", ") ?? "its foreign key"
            throw .notFilterable(
                field: name, model: model.name,
                reason: "the key is stored on the \(related?.relatedModel ?? "related") records; filter those on \(keys)")
        }
        guard relation.foreignKeys.count == 1, let foreignKey = relation.foreignKeys.first else {
            throw .compositeRelationship(field: name, model: model.name, foreignKeys: relation.foreignKeys)
        }
        return (foreignKey, Self.foreignKeyField(foreignKey, of: model, relatedKey: schema.models[relation.relatedModel]?.keyFields.first))
    }

    /// The foreign-key field; implicit ones missing from the schema take the type of the related key.
    static func foreignKeyField(_ name: String, of model: Model, relatedKey: ModelField?) -> ModelField {
        if let field = model.field(named: name) { return field }
        return ModelField(name: name, type: relatedKey?.type ?? .scalar("ID"))
    }

    /// The operators AppSync's filter inputs accept for a field (`transformer v2` `Model*Input` types).
    static func operators(for kind: ValueKind, isArray: Bool, purpose: FilterPurpose) -> [WhereOperator] {
        let existence: [WhereOperator] = purpose == .subscription ? [] : [.exists, .notExists]
        let ordering: [WhereOperator] = [.eq, .ne, .lt, .le, .gt, .ge, .between]
        if isArray {
            switch kind {
            case .string, .json: return [.contains, .notContains] + existence
            case .enumeration: return [.contains, .notContains]
            case .int, .long, .float, .boolean: return existence
            }
        }
        switch kind {
        case .string, .json: return ordering + [.beginsWith, .contains, .notContains] + existence
        case .int, .long, .float: return ordering + existence
        case .boolean: return [.eq, .ne] + existence
        case .enumeration: return [.eq, .ne]
        }
    }
}

extension FilterBuilder {
    /// The warning for one of ``contradictions(_:)``: `warning: filter 'a=1' and 'a=2' are AND-ed, …`, the expressions'
    /// option named `option` and the JSON filter's by `name`.
    public static func contradictionWarning(_ texts: [String], option: String, naming name: (Parameter) -> String) -> String {
        "warning: \(option) \(texts.map { "'\($0)'" }.joined(separator: " and ")) are AND-ed, and no record has both values; "
            + "to match either, give \(name(.filterObject)) '{\"or\": [...]}'"
    }
}
