/// One `field=value` or `field:=JSON` argument of create and update, parsed but not yet checked.
public struct FieldAssignment: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        /// `field=value`: text, coerced by the field's type.
        case text(String)
        /// `field:=JSON`: a JSON value (lists, embedded types, AWSJSON).
        case json(JSONValue)
    }

    public var field: String
    public var value: Value

    public init(field: String, value: Value) {
        self.field = field
        self.value = value
    }

    /// Parses `name=value` or `name:=JSON` (split at the first `=` or `:=` after the name).
    public static func parse(_ text: String) throws(RequestBuildError) -> FieldAssignment {
        let name = GraphQLName.prefix(of: text)
        let rest = Substring(text.unicodeScalars.dropFirst(name.unicodeScalars.count))
        guard !name.isEmpty else { throw .syntax("expected FIELD=VALUE or FIELD:=JSON") }
        if rest.hasPrefix(":=") {
            let json = String(rest.dropFirst(2))
            do {
                return FieldAssignment(field: name, value: .json(try JSONValue.parse(json)))
            } catch {
                // `title:=hello`: text meant as a string, which `=` gives as it is.
                guard let first = json.unicodeScalars.first, first.properties.isAlphabetic || first == "'" else {
                    throw .invalidJSON(error)
                }
                throw .syntax(
                    "invalid JSON at \(error.line):\(error.column): \(error.message); "
                        + "for text, write \(name)=\(json) (':=' takes JSON such as \(name):='\"text\"')")
            }
        }
        guard rest.hasPrefix("=") else { throw .syntax("expected FIELD=VALUE or FIELD:=JSON after '\(name)'") }
        return FieldAssignment(field: name, value: .text(String(rest.dropFirst())))
    }
}

extension FieldAssignment.Value {
    /// The JSON value to send for `target` (a field, or a custom operation's argument), given as `name`:
    /// text converted by the type, JSON checked against it; AWSJSON given as JSON is sent as its text.
    func resolved(for target: ModelField, named name: String, schema: ModelSchema) throws(RequestBuildError) -> JSONValue {
        switch self {
        case .json(let json):
            if !target.isArray, schema.valueKind(of: target.type) == .json {
                return json.isNull ? .null : .string(json.serialized(.compact))
            }
            return try ValueCoercion.check(json, for: target, path: target.name, schema: schema)
        case .text(let text):
            if target.isArray {
                // One value for a list is a list of one, as GraphQL coerces it (`tags=a` sends `["a"]`).
                if text == "null" { return .null }
                guard schema.valueKind(of: target.type) != nil else { throw .needsJSON(field: name, what: "a list") }
                var element = target
                element.isArray = false
                return .array([try ValueCoercion.coerce(text, for: element, schema: schema, allowNull: false)])
            }
            guard schema.valueKind(of: target.type) != nil else {
                let what = if case .input = target.type { "an input object (\(target.type))" } else { "an embedded \(target.type)" }
                throw .needsJSON(field: name, what: what)
            }
            return try ValueCoercion.coerce(text, for: target, schema: schema, allowNull: true)
        }
    }
}

/// The field values of a create or update, as given on the command line.
public struct RecordValues: Sendable, Equatable {
    /// `field=value` and `field:=JSON` arguments; later ones win, and they win over `input`.
    public var assignments: [String]
    /// The object read by `--input FILE|-`.
    public var input: JSONValue?

    public init(assignments: [String] = [], input: JSONValue? = nil) {
        self.assignments = assignments
        self.input = input
    }
}

/// Checks record values against a model and produces the mutation's `input` members.
struct RecordValueResolver {
    let schema: ModelSchema
    let model: Model
    /// Updates identify the record by key; their field values may not change key fields.
    let isUpdate: Bool

    /// The input members by field name, unsorted.
    ///
    /// From `--input`, fields that gqlc itself prints but the server does not accept are dropped:
    /// `__typename`, read-only fields and relationship objects. Given as arguments, they are errors.
    func resolve(_ values: RecordValues) throws(RequestBuildError) -> JSONObject {
        var result = JSONObject()
        if let input = values.input {
            do {
                try merge(input: input, into: &result)
            } catch {
                throw error.about(.input, nil)
            }
        }
        var assignedBy: [String: String] = [:]
        for text in values.assignments {
            do throws(RequestBuildError) {
                let (name, value) = try resolve(try FieldAssignment.parse(text))
                // Arguments override --input, but two arguments must not disagree (`blog=b1 blogId=b2`).
                if let first = assignedBy[name], result[name] != value {
                    throw .conflictingAssignments(field: name, first: first)
                }
                assignedBy[name] = text
                result[name] = value
            } catch {
                throw error.about(.fieldValue, text)
            }
        }
        return result
    }

    private func merge(input: JSONValue, into result: inout JSONObject) throws(RequestBuildError) {
        guard case .object(let object) = input else { throw .notAnObject(found: input.kindDescription) }
        for member in object where member.key != "__typename" {
            guard let field = model.field(named: member.key) else {
                throw .unknownField(member.key, type: model.name, suggestion: Suggestions.closest(to: member.key, in: model.fields.map(\.name)))
            }
            if field.isReadOnly { continue }
            if field.isRelationship {
                switch member.value {
                case .object, .null: continue
                default:
                    throw .wrongJSONType(path: member.key, expected: "an object (a \(field.type) relationship)", found: member.value.kindDescription)
                }
            }
            result[member.key] = try ValueCoercion.check(member.value, for: field, path: member.key, schema: schema)
        }
    }

    /// The stored field and value that one assignment sets.
    private func resolve(_ assignment: FieldAssignment) throws(RequestBuildError) -> (String, JSONValue) {
        let name = assignment.field
        guard let field = model.field(named: name) else {
            throw .unknownField(name, type: model.name, suggestion: Suggestions.closest(to: name, in: model.fields.map(\.name)))
        }
        guard !field.isReadOnly else { throw .readOnlyField(field: name, model: model.name) }
        let target = field.isRelationship ? try foreignKey(of: field) : field
        if isUpdate && model.isKeyField(target.name) { throw .keyFieldAssigned(target.name, model: model.name) }
        return (target.name, try assignment.value.resolved(for: target, named: name, schema: schema))
    }

    /// A belongsTo (or Gen1 hasOne) field's single foreign-key field.
    private func foreignKey(of field: ModelField) throws(RequestBuildError) -> ModelField {
        guard let relation = schema.relationship(of: field) else {
            throw .relationshipNotSettable(field: field.name, model: model.name, hint: "it has no foreign key")
        }
        guard relation.keyHolder == .thisModel else {
            let keys = relation.foreignKeys.map { "'\($0)'" }.joined(separator: ", ")
            throw .relationshipNotSettable(
                field: field.name, model: model.name, hint: "set \(keys) on the \(relation.relatedModel) record instead")
        }
        guard relation.foreignKeys.count == 1, let key = relation.foreignKeys.first else {
            throw .compositeRelationship(field: field.name, model: model.name, foreignKeys: relation.foreignKeys)
        }
        return FilterBuilder.foreignKeyField(key, of: model, relatedKey: schema.models[relation.relatedModel]?.keyFields.first)
    }
}
