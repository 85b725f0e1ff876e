/// Decodes Amplify's model introspection schema (MIS v1) into a ``ModelSchema``.
///
/// Unknown keys are ignored; anything malformed is a ``SchemaError`` naming the JSON path.
enum IntrospectionDecoder {
    /// The scalar type names MIS uses.
    static let scalarNames: Set<String> = [
        "ID", "String", "Int", "Float", "Boolean", "AWSDate", "AWSTime", "AWSDateTime", "AWSTimestamp",
        "AWSEmail", "AWSURL", "AWSIPAddress", "AWSJSON", "AWSPhone",
    ]

    static func decode(_ root: JSONNode) throws(SchemaError) -> ModelSchema {
        if let version = try root.optional("version") {
            guard case .number(let number) = version.value, number.intValue == 1 else {
                throw version.error("unsupported model introspection version \(version.value.serialized()); gqlc reads version 1")
            }
        }
        var schema = ModelSchema()
        if let enums = try root.optional("enums") {
            for (key, node) in try enums.members() {
                let name = try node.name(orKey: key)
                let values = try node.optional("values")?.nameList() ?? []
                schema.enums[name] = EnumType(name: name, values: values)
            }
        }
        if let nonModels = try root.optional("nonModels") {
            for (key, node) in try nonModels.members() {
                let name = try node.name(orKey: key)
                schema.nonModels[name] = NonModelType(name: name, fields: try decodeFields(node.required("fields")))
            }
        }
        guard let models = try root.optional("models") else {
            throw root.child("models", .null).error("missing required key")
        }
        for (key, node) in try models.members() {
            let model = try decodeModel(node, key: key)
            schema.models[model.name] = model
        }
        // A pulled schema keeps the server's `_version` on the type: conflict detection is on for that model.
        ConflictDetection.detectFromFields(in: &schema, source: "the schema has _version on the type")
        schema.customOperations = try decodeCustomOperations(root)
        schema.inputs = try decodeInputs(root)
        try checkReferences(schema, root: root)
        try checkEmbeddedCycles(schema, root: root)
        return schema
    }

    // MARK: Models

    private static func decodeModel(_ node: JSONNode, key: String) throws(SchemaError) -> Model {
        let name = try node.name(orKey: key)
        let fieldsNode = try node.required("fields")
        let fields = try decodeFields(fieldsNode)
        let pluralName = try node.optionalName("pluralName") ?? name + "s"

        var unnamedKey: [String]?
        var indexes: [SecondaryIndex] = []
        var operations = ModelOperations(modelName: name, pluralName: pluralName)
        var authRules: [AuthRule] = []
        if let attributes = try node.optional("attributes") {
            for attribute in try attributes.elements() {
                let type = try attribute.optionalString("type")
                let properties = try attribute.optional("properties")
                switch type {
                case "key":
                    guard let properties else { continue }
                    let keyFields = try properties.optional("fields")?.nameList() ?? []
                    if let indexName = try properties.optionalIndexName("name") {
                        indexes.append(SecondaryIndex(
                            name: indexName, queryField: try properties.optionalName("queryField"), fields: keyFields))
                    } else if !keyFields.isEmpty {
                        unnamedKey = keyFields
                    }
                case "model":
                    if let properties { try applyOverrides(properties, to: &operations) }
                case "auth":
                    if let rules = try properties?.optional("rules") { authRules += try decodeAuthRules(rules) }
                default:
                    continue
                }
            }
        }

        let primaryKey: PrimaryKey
        if let info = try node.optional("primaryKeyInfo") {
            let partition = try info.required("primaryKeyFieldName").name()
            let sortKeys = try info.optional("sortKeyFieldNames")?.nameList() ?? []
            primaryKey = PrimaryKey(partitionKey: partition, sortKeys: sortKeys)
            for keyName in primaryKey.fields where !fields.contains(where: { $0.name == keyName }) {
                throw info.error("key field '\(keyName)' is not a field of \(name)\(Suggestions.didYouMean(keyName, in: fields.map(\.name)))")
            }
        } else if let unnamedKey, let partition = unnamedKey.first {
            primaryKey = PrimaryKey(partitionKey: partition, sortKeys: Array(unnamedKey.dropFirst()))
        } else {
            primaryKey = PrimaryKey()
            guard fields.contains(where: { $0.name == "id" }) else {
                throw node.error("model \(name) has no primaryKeyInfo and no 'id' field, so its key is unknown")
            }
        }
        var model = Model(
            name: name, pluralName: pluralName, fields: fields, primaryKey: primaryKey,
            indexes: indexes, operations: operations, authRules: authRules)
        model.addImplicitOwnerFields()
        return model
    }

    /// `@model(queries: {list: "allPosts"}, subscriptions: null)`: a null disables, a string renames (a subscription
    /// takes a list of names: the first is used, an empty list disables). As the transformer builds them, a
    /// subscription exists only while its mutation does, and `subscriptions: {level: off}` removes all three.
    static func applyOverrides(_ properties: JSONNode, to operations: inout ModelOperations) throws(SchemaError) {
        try applyRenames(properties, to: &operations)
        if case .object(let subscriptions)? = try properties.object()["subscriptions"],
           case .string("off")? = subscriptions["level"] {
            operations.onCreate = nil
            operations.onUpdate = nil
            operations.onDelete = nil
        }
        if operations.create == nil { operations.onCreate = nil }
        if operations.update == nil { operations.onUpdate = nil }
        if operations.delete == nil { operations.onDelete = nil }
    }

    private static func applyRenames(_ properties: JSONNode, to operations: inout ModelOperations) throws(SchemaError) {
        let groups: [(String, [(String, WritableKeyPath<ModelOperations, String?>)])] = [
            ("queries", [("get", \.get), ("list", \.list)]),
            ("mutations", [("create", \.create), ("update", \.update), ("delete", \.delete)]),
            ("subscriptions", [("onCreate", \.onCreate), ("onUpdate", \.onUpdate), ("onDelete", \.onDelete)]),
        ]
        let object = try properties.object()
        for (group, entries) in groups {
            guard let value = object[group] else { continue }
            let groupNode = properties.child(group, value)
            switch value {
            case .null:
                for (_, path) in entries { operations[keyPath: path] = nil }
            case .object(let overrides):
                for (operation, path) in entries {
                    guard let override = overrides[operation] else { continue }
                    switch override {
                    case .null: operations[keyPath: path] = nil
                    case .string(let rename):
                        operations[keyPath: path] = try groupNode.child(operation, override).checkedName(rename)
                    case .array(let names) where group == "subscriptions":
                        guard let first = names.first else { operations[keyPath: path] = nil; continue }
                        guard case .string(let rename) = first else {
                            throw groupNode.child(operation, override).element(0, first).error("expected a string, found \(first.kindDescription)")
                        }
                        operations[keyPath: path] = try groupNode.child(operation, override).element(0, first).checkedName(rename)
                    default:
                        let expected = group == "subscriptions" ? "a list of names or null" : "a string or null"
                        throw groupNode.child(operation, override).error("expected \(expected), found \(override.kindDescription)")
                    }
                }
            default:
                continue  // e.g. `subscriptions: {level: public}` shapes we do not interpret
            }
        }
    }

    // MARK: Fields

    private static func decodeFields(_ node: JSONNode) throws(SchemaError) -> [ModelField] {
        var fields: [ModelField] = []
        for (key, fieldNode) in try node.members() {
            fields.append(try decodeField(fieldNode, key: key))
        }
        return fields
    }

    static func decodeField(_ node: JSONNode, key: String) throws(SchemaError) -> ModelField {
        let name = try node.name(orKey: key)
        let typeNode = try node.required("type")
        let type: FieldType
        switch typeNode.value {
        case .string(let scalar):
            type = .scalar(try typeNode.checkedName(scalar))
        case .object(let object):
            if let model = object["model"] {
                type = .model(try typeNode.child("model", model).name())
            } else if let enumeration = object["enum"] {
                type = .enumeration(try typeNode.child("enum", enumeration).name())
            } else if let nonModel = object["nonModel"] {
                type = .nonModel(try typeNode.child("nonModel", nonModel).name())
            } else if let input = object["input"] {
                type = .input(try typeNode.child("input", input).name())
            } else {
                throw typeNode.error("expected one of the keys 'model', 'enum', 'nonModel' or 'input'")
            }
        default:
            throw typeNode.error("expected a string or an object, found \(typeNode.value.kindDescription)")
        }
        let isArray = try node.optionalBool("isArray") ?? false
        var association: Association?
        if let associationNode = try node.optional("association") { association = try decodeAssociation(associationNode) }
        return ModelField(
            name: name, type: type, isArray: isArray,
            isRequired: try node.optionalBool("isRequired") ?? false,
            isArrayNullable: try node.optionalBool("isArrayNullable") ?? true,
            isReadOnly: try node.optionalBool("isReadOnly") ?? false,
            association: association)
    }

    private static func decodeAssociation(_ node: JSONNode) throws(SchemaError) -> Association {
        let kind = try node.required("connectionType").string()
        let associatedWith = try node.optional("associatedWith")?.nameList() ?? []
        var targetNames: [String] = []
        if let targets = try node.optional("targetNames") {
            targetNames = try targets.nameList()
        } else if let target = try node.optional("targetName") {
            targetNames = try target.nameList()  // older metadata wrote one name
        }
        switch kind {
        case "HAS_MANY": return .hasMany(associatedWith: associatedWith)
        case "HAS_ONE": return .hasOne(associatedWith: associatedWith, targetNames: targetNames)
        case "BELONGS_TO": return .belongsTo(targetNames: targetNames)
        default:
            let known = ["HAS_MANY", "HAS_ONE", "BELONGS_TO"]
            throw node.child("connectionType", .string(kind)).error(
                "unknown connection type '\(kind)'\(Suggestions.didYouMean(kind, in: known)); expected HAS_MANY, HAS_ONE or BELONGS_TO")
        }
    }

    // MARK: Checks

    /// Every model, enum and embedded type a field names must exist.
    private static func checkReferences(_ schema: ModelSchema, root: JSONNode) throws(SchemaError) {
        func check(_ fields: [ModelField], owner: JSONNode) throws(SchemaError) {
            for field in fields {
                let typeNode = owner.child("fields", .null).child(field.name, .null).child("type", .null)
                switch field.type {
                case .model(let name) where schema.models[name] == nil:
                    throw typeNode.child("model", .null).error(
                        "unknown model '\(name)'\(Suggestions.didYouMean(name, in: schema.models.keys))")
                case .enumeration(let name) where schema.enums[name] == nil:
                    throw typeNode.child("enum", .null).error(
                        "unknown enum '\(name)'\(Suggestions.didYouMean(name, in: schema.enums.keys))")
                case .nonModel(let name) where schema.nonModels[name] == nil:
                    throw typeNode.child("nonModel", .null).error(
                        "unknown embedded type '\(name)'\(Suggestions.didYouMean(name, in: schema.nonModels.keys))")
                default:
                    break
                }
                if field.association != nil, !field.type.isModel {
                    throw owner.child("fields", .null).child(field.name, .null).child("association", .null)
                        .error("an association needs a model-typed field, but the type is \(field.type)")
                }
            }
        }
        for name in schema.modelNames {
            guard let model = schema.models[name] else { continue }
            try check(model.fields, owner: root.child("models", .null).child(name, .null))
        }
        for name in schema.nonModels.keys.sorted() {
            guard let type = schema.nonModels[name] else { continue }
            try check(type.fields, owner: root.child("nonModels", .null).child(name, .null))
        }
    }

    /// Embedded types are selected with all their fields, so they must not contain themselves.
    static func checkEmbeddedCycles(_ schema: ModelSchema, root: JSONNode) throws(SchemaError) {
        var finished: Set<String> = []
        for start in schema.nonModels.keys.sorted() where !finished.contains(start) {
            // Iterative depth-first search, tracking the current path.
            var stack: [(name: String, next: Int)] = [(start, 0)]
            var onPath: [String] = [start]
            while let top = stack.last {
                let fields = schema.nonModels[top.name]?.fields ?? []
                let embedded = fields.compactMap { field -> String? in
                    if case .nonModel(let name) = field.type { return name } else { return nil }
                }
                if top.next >= embedded.count {
                    finished.insert(top.name)
                    stack.removeLast()
                    onPath.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let target = embedded[top.next]
                if onPath.contains(target) {
                    let cycle = onPath.drop(while: { $0 != target }) + [target]
                    throw root.child("nonModels", .null).child(top.name, .null).error(
                        "embedded types form a cycle (\(cycle.joined(separator: " → "))), which cannot be selected")
                }
                if !finished.contains(target) {
                    stack.append((target, 0))
                    onPath.append(target)
                }
            }
        }
    }
}
