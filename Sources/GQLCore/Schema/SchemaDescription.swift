/// A machine-readable description of a model schema, as `gqlc models --output json` prints it.
///
/// ```json
/// {"models": [{"name": "Post", "pluralName": "Posts", "primaryKey": {...}, "fields": [...],
///   "associations": [...], "indexes": [...], "operations": {...}, "authRules": [...]}],
///  "enums": [...], "nonModels": [...], "inputs": [...], "queries": [...], "mutations": [...], "subscriptions": [...]}
/// ```
extension ModelSchema {
    /// The whole schema: models, enums and embedded types sorted by name, custom operations by kind.
    public var descriptionJSON: JSONValue {
        var object: JSONObject = [
            "models": .array(modelNames.compactMap { models[$0] }.map(description(of:))),
            "enums": .array(enums.keys.sorted().compactMap { enums[$0] }.map { type in
                ["name": .string(type.name), "values": .array(type.values.map(JSONValue.string))]
            }),
            "nonModels": Self.typesJSON(nonModels),
            "inputs": Self.typesJSON(inputs),
        ]
        for (key, kind) in [("queries", CustomOperation.Kind.query), ("mutations", .mutation), ("subscriptions", .subscription)] {
            object[key] = .array(customOperations.filter { $0.kind == kind }.map(description(of:)))
        }
        return .object(object)
    }

    /// One custom operation: its result as a field (name, type, list-ness, …) and its `arguments`.
    public func description(of operation: CustomOperation) -> JSONValue {
        var entry = Self.fieldObject(operation.result)
        entry["arguments"] = .array(operation.arguments.map(Self.fieldJSON))
        return .object(entry)
    }

    /// One model: its key, its stored fields, associations (with the foreign keys and which side holds them),
    /// indexes, operation names (null where disabled) and auth rules.
    public func description(of model: Model) -> JSONValue {
        let associations: [JSONValue] = model.fields.compactMap { field in
            guard let relation = relationship(of: field) else { return nil }
            return [
                "field": .string(field.name), "kind": .string(relation.kind.rawValue),
                "relatedModel": .string(relation.relatedModel),
                "keyHolder": .string(relation.keyHolder == .thisModel ? model.name : relation.relatedModel),
                "foreignKeys": .array(relation.foreignKeys.map(JSONValue.string)),
            ]
        }
        var object: JSONObject = [
            "name": .string(model.name), "pluralName": .string(model.pluralName),
            "primaryKey": [
                "partitionKey": .string(model.primaryKey.partitionKey),
                "sortKeys": .array(model.primaryKey.sortKeys.map(JSONValue.string)),
            ],
            "fields": .array(model.fields.filter { !$0.type.isModel }.map(Self.fieldJSON)),
            "associations": .array(associations),
            "indexes": .array(model.indexes.map { index in
                ["name": .string(index.name), "fields": .array(index.fields.map(JSONValue.string)),
                 "queryField": index.queryField.map(JSONValue.string) ?? .null]
            }),
            "operations": .object(JSONObject(model.operations.named.map { .init(key: $0.kind, value: $0.name.map(JSONValue.string) ?? .null) })),
            "authRules": .array(model.authRules.map(Self.ruleJSON)),
        ]
        if let detection = model.conflictDetection {
            object["conflictDetection"] = [
                "handler": detection.handler.map { .string($0.rawValue) } ?? .null, "source": .string(detection.source),
                "syncQuery": .string(ConflictDetection.syncQuery(of: model)),
            ]
        }
        return .object(object)
    }

    /// Named types with their fields, sorted by name.
    private static func typesJSON(_ types: [String: NonModelType]) -> JSONValue {
        .array(types.keys.sorted().compactMap { types[$0] }.map { type in
            ["name": .string(type.name), "fields": .array(type.fields.map(Self.fieldJSON))]
        })
    }

    private static func fieldJSON(_ field: ModelField) -> JSONValue {
        .object(fieldObject(field))
    }

    private static func fieldObject(_ field: ModelField) -> JSONObject {
        let kind = switch field.type {
        case .scalar: "scalar"
        case .enumeration: "enum"
        case .nonModel: "nonModel"
        case .model: "model"
        case .input: "input"
        }
        return [
            "name": .string(field.name), "type": .string(field.type.description), "kind": .string(kind),
            "graphQLType": .string(field.graphQLType), "isArray": .bool(field.isArray),
            "isRequired": .bool(field.isRequired), "isReadOnly": .bool(field.isReadOnly),
        ]
    }

    private static func ruleJSON(_ rule: AuthRule) -> JSONValue {
        var object: JSONObject = ["allow": .string(rule.allow), "provider": rule.provider.map(JSONValue.string) ?? .null,
                                  "operations": .array(rule.operations.map(JSONValue.string))]
        if let ownerField = rule.ownerField { object["ownerField"] = .string(ownerField) }
        if let identityClaim = rule.identityClaim { object["identityClaim"] = .string(identityClaim) }
        if !rule.groups.isEmpty { object["groups"] = .array(rule.groups.map(JSONValue.string)) }
        if let groupsField = rule.groupsField { object["groupsField"] = .string(groupsField) }
        if let groupClaim = rule.groupClaim { object["groupClaim"] = .string(groupClaim) }
        return .object(object)
    }
}
