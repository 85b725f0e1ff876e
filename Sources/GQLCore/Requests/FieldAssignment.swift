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
    /// From `--input`, fields that gqlc itself prints but the server does not accept are dropped: `__typename`,
    /// read-only fields and relationships held by the related records; a belongsTo sets its foreign keys. Given as
    /// arguments, they are errors.
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
        var foreignKeys: [(relation: String, field: String, value: JSONValue)] = []
        for member in object where member.key != "__typename" {
            guard let field = model.field(named: member.key) else {
                throw .unknownField(member.key, type: model.name, suggestion: Suggestions.closest(to: member.key, in: model.fields.map(\.name)))
            }
            if field.isReadOnly { continue }
            if field.isRelationship {
                for (key, value) in try foreignKeyValues(of: field, given: member.value) {
                    foreignKeys.append((field.name, key, value))
                }
                continue
            }
            result[member.key] = try ValueCoercion.check(member.value, for: field, path: member.key, schema: schema)
        }
        // A belongsTo given as the related record (or its key) sets the foreign keys, which the record may also carry.
        for (relation, field, value) in foreignKeys {
            if let given = result[field], given != value { throw .conflictingAssignments(field: field, first: relation) }
            result[field] = value
        }
    }

    /// The foreign keys that a relationship member of `--input` sets: a belongsTo (or Gen1 hasOne) given as the
    /// related record or its key object (`{"id": "b1", …}`, the shape Amplify JS and DataStore records have) or, for a
    /// one-field key, as the key itself (`"b1"`). Null, and objects for relationships held by the related records
    /// (an included list as gqlc prints it), set nothing.
    private func foreignKeyValues(of field: ModelField, given value: JSONValue) throws(RequestBuildError) -> [(String, JSONValue)] {
        if value.isNull { return [] }
        guard let relation = schema.relationship(of: field), relation.keyHolder == .thisModel else {
            if case .object = value { return [] }
            throw .wrongJSONType(path: field.name, expected: "an object (a \(field.type) relationship)", found: value.kindDescription)
        }
        let relatedKeys = schema.models[relation.relatedModel]?.keyFields ?? []
        let pairs = Array(zip(relation.foreignKeys, relatedKeys))
        guard !pairs.isEmpty, pairs.count == relation.foreignKeys.count else {
            throw .relationshipNotSettable(field: field.name, model: model.name, hint: "its foreign keys do not match \(relation.relatedModel)'s key")
        }
        let keyObject: JSONObject
        switch value {
        case .object(let object):
            keyObject = object
        case .string, .number:
            guard pairs.count == 1 else {
                throw .compositeRelationship(field: field.name, model: model.name, foreignKeys: relation.foreignKeys)
            }
            keyObject = [pairs[0].1.name: value]
        default:
            let names = relatedKeys.map(\.name).joined(separator: ", ")
            throw .wrongJSONType(
                path: field.name, expected: "the \(relation.relatedModel) record or its key (\(names))", found: value.kindDescription)
        }
        var values: [(String, JSONValue)] = []
        for (foreignKey, relatedKey) in pairs {
            let path = "\(field.name).\(relatedKey.name)"
            guard let keyValue = keyObject[relatedKey.name], !keyValue.isNull else {
                throw .wrongJSONType(
                    path: field.name, expected: "the \(relation.relatedModel)'s key field '\(relatedKey.name)'",
                    found: "an object without it")
            }
            let target = FilterBuilder.foreignKeyField(foreignKey, of: model, relatedKey: relatedKey)
            values.append((foreignKey, try ValueCoercion.check(keyValue, for: target, path: path, schema: schema)))
        }
        return values
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
