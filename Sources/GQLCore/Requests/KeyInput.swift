/// How a command names one record: by the value of a single-field key, or by each field of a composite key.
public enum KeyInput: Sendable, Equatable {
    /// `--id VALUE`: for a model whose key is one field (`id`, or a custom single key such as `warehouseId`).
    case id(String)
    /// `--key FIELD=VALUE`, once per key field; works for any key.
    case fields([String])
    /// Key values already typed as JSON, as read from a fetched record.
    case values(JSONObject)
}

extension KeyInput {
    /// The key values of `model`, in key order, coerced by each key field's type
    /// (an Int sort key becomes a JSON number). Every key field is required.
    func resolve(for model: Model, schema: ModelSchema) throws(RequestBuildError) -> JSONObject {
        let keyNames = model.primaryKey.fields
        var values = JSONObject()
        switch self {
        case .id(let text):
            guard keyNames.count == 1, let field = model.keyFields.first else {
                throw RequestBuildError.keyRequired(model: model.name, keyFields: keyNames).about(.id, text)
            }
            do throws(RequestBuildError) {
                values[field.name] = try Self.coerce(text, field: field, schema: schema)
            } catch {
                throw error.about(.id, text)
            }
        case .fields(let pairs):
            for pair in pairs {
                do throws(RequestBuildError) {
                    let (name, text) = try Self.split(pair)
                    guard let field = model.keyFields.first(where: { $0.name == name }) else {
                        throw RequestBuildError.notAKeyField(
                            name, model: model.name, keyFields: keyNames, suggestion: Suggestions.closest(to: name, in: keyNames))
                    }
                    guard values[name] == nil else { throw RequestBuildError.duplicateKeyField(name) }
                    values[name] = try Self.coerce(text, field: field, schema: schema)
                } catch {
                    throw error.about(.key, pair)
                }
            }
        case .values(let given):
            for name in keyNames {
                if let value = given[name], !value.isNull { values[name] = value }
            }
        }
        var ordered = JSONObject()
        for name in keyNames {
            guard let value = values[name] else {
                if case .id = self { throw RequestBuildError.keyRequired(model: model.name, keyFields: keyNames) }
                throw RequestBuildError.missingKeyField(name, model: model.name, keyFields: keyNames)
            }
            ordered[name] = value
        }
        return ordered
    }

    /// `field=value` split at the first `=`.
    static func split(_ pair: String) throws(RequestBuildError) -> (String, String) {
        guard let equals = pair.firstIndex(of: "="), GraphQLName.isValid(String(pair[..<equals])) else {
            throw .syntax("expected FIELD=VALUE")
        }
        return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
    }

    private static func coerce(_ text: String, field: ModelField, schema: ModelSchema) throws(RequestBuildError) -> JSONValue {
        try ValueCoercion.coerce(text, for: field, schema: schema, allowNull: false)
    }
}
