/// Writes a ``ModelSchema`` as a model introspection file (MIS v1), the format `SchemaLoader` reads back:
/// what `gqlc schema pull` saves.
public enum ModelIntrospectionWriter {
    public static func json(_ schema: ModelSchema) -> JSONValue {
        var root: JSONObject = ["version": .number(JSONNumber(1))]
        var models = JSONObject()
        for name in schema.modelNames {
            guard let model = schema.models[name] else { continue }
            models[name] = modelJSON(model)
        }
        root["models"] = .object(models)
        var enums = JSONObject()
        for name in schema.enums.keys.sorted() {
            guard let type = schema.enums[name] else { continue }
            enums[name] = .object(["name": .string(name), "values": .array(type.values.map(JSONValue.string))])
        }
        root["enums"] = .object(enums)
        var nonModels = JSONObject()
        for name in schema.nonModels.keys.sorted() {
            guard let type = schema.nonModels[name] else { continue }
            nonModels[name] = .object(["name": .string(name), "fields": fieldsJSON(type.fields)])
        }
        root["nonModels"] = .object(nonModels)
        if !schema.inputs.isEmpty {
            var inputs = JSONObject()
            for name in schema.inputs.keys.sorted() {
                guard let type = schema.inputs[name] else { continue }
                // Input fields, like arguments, carry no `attributes` of their own in the format.
                inputs[name] = .object(["name": .string(name), "attributes": fieldsJSON(type.fields, attributes: false)])
            }
            root["inputs"] = .object(inputs)
        }
        for (key, kind) in [("queries", CustomOperation.Kind.query), ("mutations", .mutation), ("subscriptions", .subscription)] {
            let operations = schema.customOperations.filter { $0.kind == kind }
            guard !operations.isEmpty else { continue }
            var group = JSONObject()
            for operation in operations {
                // Operations and their arguments carry no `attributes` in the format.
                guard case .object(var object) = fieldJSON(operation.result, attributes: false) else { continue }
                object["name"] = .string(operation.name)
                if !operation.arguments.isEmpty { object["arguments"] = fieldsJSON(operation.arguments, attributes: false) }
                group[operation.name] = .object(object)
            }
            root[key] = .object(group)
        }
        return .object(root)
    }

    private static func modelJSON(_ model: Model) -> JSONValue {
        var attributes: [JSONValue] = [.object(["type": .string("model"), "properties": .object(overrides(model))])]
        if !model.primaryKey.isDefaultID {
            attributes.append(.object(["type": .string("key"), "properties": .object(["fields": strings(model.primaryKey.fields)])]))
        }
        for index in model.indexes {
            var properties: JSONObject = ["name": .string(index.name)]
            if let queryField = index.queryField { properties["queryField"] = .string(queryField) }
            properties["fields"] = strings(index.fields)
            attributes.append(.object(["type": .string("key"), "properties": .object(properties)]))
        }
        if !model.authRules.isEmpty {
            attributes.append(.object(["type": .string("auth"), "properties": .object(["rules": .array(model.authRules.map(ruleJSON))])]))
        }
        return .object([
            "name": .string(model.name), "fields": fieldsJSON(model.fields), "syncable": .bool(true),
            "pluralName": .string(model.pluralName), "attributes": .array(attributes),
            "primaryKeyInfo": .object([
                "isCustomPrimaryKey": .bool(!model.primaryKey.isDefaultID),
                "primaryKeyFieldName": .string(model.primaryKey.partitionKey),
                "sortKeyFieldNames": strings(model.primaryKey.sortKeys),
            ]),
        ])
    }

    /// `@model(queries: …, mutations: …, subscriptions: …)` for operations renamed or disabled.
    private static func overrides(_ model: Model) -> JSONObject {
        let defaults = ModelOperations(modelName: model.name, pluralName: model.pluralName)
        let groups: [(String, [(String, KeyPath<ModelOperations, String?>)])] = [
            ("queries", [("get", \.get), ("list", \.list)]),
            ("mutations", [("create", \.create), ("update", \.update), ("delete", \.delete)]),
            ("subscriptions", [("onCreate", \.onCreate), ("onUpdate", \.onUpdate), ("onDelete", \.onDelete)]),
        ]
        var properties = JSONObject()
        for (group, entries) in groups {
            if entries.allSatisfy({ model.operations[keyPath: $0.1] == nil }) {
                properties[group] = .null
                continue
            }
            var changed = JSONObject()
            for (name, path) in entries where model.operations[keyPath: path] != defaults[keyPath: path] {
                changed[name] = model.operations[keyPath: path].map(JSONValue.string) ?? .null
            }
            if !changed.isEmpty { properties[group] = .object(changed) }
        }
        return properties
    }

    private static func fieldsJSON(_ fields: [ModelField], attributes: Bool = true) -> JSONValue {
        var object = JSONObject()
        for field in fields { object[field.name] = fieldJSON(field, attributes: attributes) }
        return .object(object)
    }

    private static func fieldJSON(_ field: ModelField, attributes: Bool = true) -> JSONValue {
        let type: JSONValue = switch field.type {
        case .scalar(let name): .string(name)
        case .enumeration(let name): .object(["enum": .string(name)])
        case .nonModel(let name): .object(["nonModel": .string(name)])
        case .model(let name): .object(["model": .string(name)])
        case .input(let name): .object(["input": .string(name)])
        }
        var object: JSONObject = [
            "name": .string(field.name), "isArray": .bool(field.isArray), "type": type,
            "isRequired": .bool(field.isRequired),
        ]
        if attributes { object["attributes"] = .array([]) }
        if field.isArray { object["isArrayNullable"] = .bool(field.isArrayNullable) }
        if field.isReadOnly { object["isReadOnly"] = .bool(true) }
        switch field.association {
        case .hasMany(let associatedWith)?:
            object["association"] = .object(["connectionType": .string("HAS_MANY"), "associatedWith": strings(associatedWith)])
        case .hasOne(let associatedWith, let targetNames)?:
            object["association"] = .object([
                "connectionType": .string("HAS_ONE"), "associatedWith": strings(associatedWith), "targetNames": strings(targetNames),
            ])
        case .belongsTo(let targetNames)?:
            object["association"] = .object(["connectionType": .string("BELONGS_TO"), "targetNames": strings(targetNames)])
        case nil:
            break
        }
        return .object(object)
    }

    private static func ruleJSON(_ rule: AuthRule) -> JSONValue {
        var object: JSONObject = ["allow": .string(rule.allow)]
        if let provider = rule.provider { object["provider"] = .string(provider) }
        if let ownerField = rule.ownerField { object["ownerField"] = .string(ownerField) }
        if let identityClaim = rule.identityClaim { object["identityClaim"] = .string(identityClaim) }
        if !rule.groups.isEmpty { object["groups"] = strings(rule.groups) }
        if let groupsField = rule.groupsField { object["groupsField"] = .string(groupsField) }
        if let groupClaim = rule.groupClaim { object["groupClaim"] = .string(groupClaim) }
        object["operations"] = strings(rule.operations)
        return .object(object)
    }

    private static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}
