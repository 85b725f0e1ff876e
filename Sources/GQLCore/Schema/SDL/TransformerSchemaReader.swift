/// Reads the Amplify GraphQL transformer v2 input schema (`amplify/backend/api/<name>/schema.graphql`, the
/// `@model` SDL) into the ``ModelSchema`` its model introspection file would hold: `@model`, `@primaryKey`,
/// `@index`, `@hasMany`, `@hasOne`, `@belongsTo`, `@manyToMany`, `@auth`, `@default`, enums, non-model types,
/// and the transformer's generated foreign keys, join models and timestamps.
///
/// ```swift
/// let schema = try TransformerSchemaReader.read(text: sdl, path: "schema.graphql")
/// schema.models["Post"]?.field(named: "blogPostsId")   // the foreign key @hasMany on Blog.posts adds
/// ```
public enum TransformerSchemaReader {
    /// Parses and derives; syntax errors and schema errors carry `line:column`.
    public static func read(text: String, path: String) throws(SchemaError) -> ModelSchema {
        let document: SchemaDocument
        do {
            document = try SchemaDocument(parsing: text, fileName: path)
        } catch {
            throw SchemaError(file: path, location: "\(error.line):\(error.column)", message: error.message)
        }
        var derivation = try TransformerDerivation(document: document, path: path)
        return try derivation.derive()
    }

    /// The scalars GraphQL and AppSync define.
    static let builtinScalars: Set<String> = IntrospectionDecoder.scalarNames

    /// The directives of the transformer (and AppSync) that a schema may use without declaring them.
    static let knownDirectives: Set<String> = [
        "model", "primaryKey", "index", "hasMany", "hasOne", "belongsTo", "manyToMany", "auth", "default",
        "searchable", "function", "http", "predictions", "mapsTo", "refersTo", "sql", "validate", "deprecated",
        "aws_subscribe", "aws_api_key", "aws_iam", "aws_cognito_user_pools", "aws_oidc", "aws_lambda", "aws_auth",
        "conversation", "generation", "specifiedBy",
    ]

    /// Transformer v1 directives, with what the v2 schema uses instead (Amplify's migration guide).
    static let version1Directives: [String: String] = [
        "connection": "@hasMany, @hasOne, @belongsTo or @manyToMany",
        "key": "@primaryKey on the key field, or @index(name:, sortKeyFields:, queryField:) for a secondary index",
        "versioned": "nothing: conflict detection replaced it",
    ]
}

/// One derivation: the parsed document, indexed, and the models built from it.
struct TransformerDerivation {
    let document: SchemaDocument
    let path: String
    /// Object types by name, extensions merged, in source order.
    var objects: [String: TypeSystemDefinition] = [:]
    var objectOrder: [String] = []
    var enums: [String: EnumType] = [:]
    var scalars: Set<String> = TransformerSchemaReader.builtinScalars
    var otherTypes: Set<String> = []
    /// Input types, extensions merged (custom operations' arguments).
    var inputs: [String: TypeSystemDefinition] = [:]
    var declaredDirectives: Set<String> = []
    /// Where each type, enum and input was first defined, for duplicates.
    var firstDefinitions: [String: Int] = [:]
    var rootTypes: [String: CustomOperation.Kind] = ["Query": .query, "Mutation": .mutation, "Subscription": .subscription]
    /// Fields the relational directives add to a model, after its timestamps, in the order they are made.
    var addedFields: [String: [ModelField]] = [:]
    /// The join models `@manyToMany` makes, by relation name.
    var joinModels: [String: Model] = [:]
    var joinOrder: [String] = []
    let pluralizer = Pluralizer()
    /// `input AMPLIFY { globalAuthRule: AuthRule = {…} }`: the rule the transformer gives models without `@auth`.
    var globalAuthRule: LocatedDirective?

    init(document: SchemaDocument, path: String) throws(SchemaError) {
        self.document = document
        self.path = path
        for definition in document.definitions {
            switch definition.kind {
            case .object:
                try checkUnique(definition)
                if var existing = objects[definition.name] {
                    existing.fields += definition.fields
                    existing.directives += definition.directives
                    objects[definition.name] = existing
                } else {
                    objects[definition.name] = definition
                    objectOrder.append(definition.name)
                }
            case .enumeration:
                try checkUnique(definition)
                let values = definition.enumValues.map(\.name)
                enums[definition.name, default: EnumType(name: definition.name, values: [])].values += values
            case .scalar: scalars.insert(definition.name)
            case .directive: declaredDirectives.insert(definition.name)
            case .schema:
                for (operation, type) in definition.operationTypes {
                    if let kind = CustomOperation.Kind(rawValue: operation) { rootTypes[type] = kind }
                }
            case .input where definition.name == "AMPLIFY":
                // `input AMPLIFY { globalAuthRule: AuthRule = { allow: public } }`, which `amplify add api` writes:
                // settings for the transformer, which removes it from the schema it deploys, and gives the rule to
                // every model without @auth of its own.
                if let rule = definition.fields.first(where: { $0.name == "globalAuthRule" }), let value = rule.defaultValue {
                    globalAuthRule = LocatedDirective(name: "auth", arguments: [Argument("rules", .list([value]))], offset: rule.offset)
                }
                continue
            case .input:
                try checkUnique(definition)
                if var existing = inputs[definition.name] {
                    existing.fields += definition.fields
                    inputs[definition.name] = existing
                } else {
                    inputs[definition.name] = definition
                }
            case .interface, .union: otherTypes.insert(definition.name)
            }
        }
        try checkDirectives()
    }

    func error(at offset: Int, _ message: String, remedy: Remedy? = nil) -> SchemaError {
        SchemaError(file: path, location: document.position(of: offset).description, message: message, remedy: remedy)
    }

    func isModel(_ name: String) -> Bool { objects[name]?.directives.contains { $0.name == "model" } ?? false }

    // MARK: Deriving

    mutating func derive() throws(SchemaError) -> ModelSchema {
        var schema = ModelSchema(enums: enums)
        let modelNames = objectOrder.filter(isModel)
        if modelNames.isEmpty, let connection = objectOrder.first(where: { $0.hasPrefix("Model") && $0.hasSuffix("Connection") }) {
            throw error(at: objects[connection]?.offset ?? 0, "this is the schema AppSync serves (it has \(connection)), "
                        + "not the @model schema it was generated from; use amplify/backend/api/<name>/schema.graphql, "
                        + "or", remedy: .pullSchema)
        }
        for name in objectOrder where !isModel(name) && rootTypes[name] == nil {
            guard let definition = objects[name] else { continue }
            schema.nonModels[name] = NonModelType(name: name, fields: try plainFields(definition))
        }
        try checkManyToManyPairs()
        var bases: [String: Model] = [:]
        for name in modelNames {
            guard let definition = objects[name] else { continue }
            bases[name] = try baseModel(definition)
        }
        for name in modelNames {
            guard let definition = objects[name], var model = bases[name] else { continue }
            for field in definition.fields where relationalDirective(field) != nil {
                let index = model.fields.firstIndex { $0.name == field.name }
                let derived = try relationshipField(field, of: model, models: bases)
                if let index { model.fields[index] = derived }
            }
            bases[name] = model
        }
        for name in modelNames {
            guard var model = bases[name], let definition = objects[name] else { continue }
            model.fields += try timestamps(definition, fields: model.fields)
            for added in addedFields[name] ?? [] where model.field(named: added.name) == nil {
                model.fields.append(added)
            }
            model.addImplicitOwnerFields()
            schema.models[name] = model
        }
        for name in joinOrder {
            guard var join = joinModels[name] else { continue }
            join.fields += Self.defaultTimestamps
            schema.models[name] = join
        }
        schema.customOperations = try customOperations()
        schema.inputs = try inputTypes()
        do {
            try IntrospectionDecoder.checkEmbeddedCycles(schema, root: JSONNode(value: .null, path: "", file: path))
        } catch {
            let offset = objects[error.location.split(separator: ".").last.map(String.init) ?? ""]?.offset ?? 0
            throw self.error(at: offset, error.message)
        }
        return schema
    }

    /// A model's declared fields, key, indexes, operation names and auth rules; relationship fields get their
    /// associations later, once every model's key is known.
    private func baseModel(_ definition: TypeSystemDefinition) throws(SchemaError) -> Model {
        var fields: [ModelField] = []
        for field in definition.fields {
            guard let type = try fieldType(field, allowModels: true) else { continue }
            if case .model(let target) = type, relationalDirective(field) == nil {
                throw error(at: field.offset, "field '\(field.name)' of model \(definition.name) has the model type "
                            + "\(target) but no @hasMany, @hasOne, @belongsTo or @manyToMany")
            }
            fields.append(Self.modelField(field.name, field.type, type))
        }
        var primaryKey = PrimaryKey()
        var indexes: [SecondaryIndex] = []
        for field in definition.fields {
            for directive in field.directives {
                switch directive.name {
                case "primaryKey":
                    guard primaryKey.isDefaultID else {
                        throw error(at: directive.offset, "\(definition.name) has more than one @primaryKey; "
                                    + "put the other key fields in sortKeyFields")
                    }
                    let sortKeys = try stringList(directive, "sortKeyFields")
                    try checkFields(sortKeys, in: fields, model: definition.name, at: directive.offset)
                    for name in [field.name] + sortKeys {
                        guard let key = fields.first(where: { $0.name == name }), !key.isRequired, !key.isArray else { continue }
                        throw error(at: directive.offset, "the primary key of \(definition.name) must be non-null, "
                                    + "but '\(name)' may be null; write '\(name): \(key.type)!'")
                    }
                    primaryKey = PrimaryKey(partitionKey: field.name, sortKeys: sortKeys)
                case "index":
                    let sortKeys = try stringList(directive, "sortKeyFields")
                    try checkFields(sortKeys, in: fields, model: definition.name, at: directive.offset)
                    let keyFields = [field.name] + sortKeys
                    let name = try string(directive, "name")
                        ?? pluralizer.plural(definition.name).lowercasedFirst + "By" + keyFields.map(\.uppercasedFirst).joined(separator: "And")
                    indexes.append(SecondaryIndex(name: name, queryField: try string(directive, "queryField"), fields: keyFields))
                case "default":
                    guard directive.argument("value") != nil else {
                        throw error(at: directive.offset, "@default needs a value: @default(value: \"…\")")
                    }
                    // The server fills it in, so a create need not give it.
                    if let index = fields.firstIndex(where: { $0.name == field.name }) { fields[index].hasDefault = true }
                default:
                    continue
                }
            }
        }
        if primaryKey.isDefaultID {
            if let index = fields.firstIndex(where: { $0.name == "id" }) {
                // As codegen does: the default key is required even when written `id: ID`.
                fields[index].isRequired = true
            } else {
                fields.insert(ModelField(name: "id", type: .scalar("ID"), isRequired: true), at: 0)
            }
        }
        let pluralName = pluralizer.plural(definition.name)
        var operations = ModelOperations(modelName: definition.name, pluralName: pluralName)
        var authRules: [AuthRule] = []
        for directive in definition.directives {
            switch directive.name {
            case "model":
                let node = JSONNode(value: .object(JSONObject(directive.arguments.map { .init(key: $0.name, value: $0.value.jsonValue) })),
                                    path: document.position(of: directive.offset).description + " @model", file: path)
                try IntrospectionDecoder.applyOverrides(node, to: &operations)
            case "auth":
                authRules += try self.authRules(directive)
            default:
                continue
            }
        }
        if let globalAuthRule, !definition.directives.contains(where: { $0.name == "auth" }) {
            authRules = try self.authRules(globalAuthRule)
        }
        return Model(name: definition.name, pluralName: pluralName, fields: fields, primaryKey: primaryKey,
                     indexes: indexes, operations: operations, authRules: authRules)
    }

    /// `createdAt` and `updatedAt` as `@model` adds them (renamed or removed by `timestamps:`), unless declared.
    private func timestamps(_ definition: TypeSystemDefinition, fields: [ModelField]) throws(SchemaError) -> [ModelField] {
        var names: [String] = ["createdAt", "updatedAt"]
        if let model = definition.directives.first(where: { $0.name == "model" }), let setting = model.argument("timestamps") {
            switch setting {
            case .null: names = []
            case .object(let entries):
                names = []
                for (key, fallback) in [("createdAt", "createdAt"), ("updatedAt", "updatedAt")] {
                    switch entries.first(where: { $0.name == key })?.value {
                    case .string(let renamed)?:
                        guard GraphQLName.isValid(renamed) else {
                            throw error(at: model.offset, "@model timestamps.\(key): " + GraphQLName.notANameMessage(renamed))
                        }
                        names.append(renamed)
                    case .null?: continue
                    case nil: names.append(fallback)
                    default: throw error(at: model.offset, "@model timestamps.\(key) must be a string or null")
                    }
                }
            default:
                throw error(at: model.offset, "@model timestamps must be an object such as {createdAt: \"createdOn\"} or null")
            }
        }
        return names.filter { name in !fields.contains { $0.name == name } }.map {
            ModelField(name: $0, type: .scalar("AWSDateTime"), isReadOnly: true)
        }
    }

    static let defaultTimestamps = ["createdAt", "updatedAt"].map {
        ModelField(name: $0, type: .scalar("AWSDateTime"), isReadOnly: true)
    }

    /// Fields of a non-model type or operation arguments: scalars, enums and non-model types.
    func plainFields(_ definition: TypeSystemDefinition) throws(SchemaError) -> [ModelField] {
        var fields: [ModelField] = []
        for field in definition.fields {
            guard let type = try fieldType(field, allowModels: false) else { continue }
            fields.append(Self.modelField(field.name, field.type, type))
        }
        return fields
    }

    /// What a field's named type is; nil for interfaces, unions and inputs (which model introspection skips).
    func fieldType(_ field: FieldDefinition, allowModels: Bool) throws(SchemaError) -> FieldType? {
        let name = field.type.namedType
        if scalars.contains(name) { return .scalar(name) }
        if enums[name] != nil { return .enumeration(name) }
        if isModel(name) {
            guard allowModels else {
                throw error(at: field.offset, "field '\(field.name)' has the model type \(name); only models may refer to models")
            }
            return .model(name)
        }
        if objects[name] != nil, rootTypes[name] == nil { return .nonModel(name) }
        if otherTypes.contains(name) || inputs[name] != nil { return nil }
        if let directive = field.directives.first(where: { Self.relationalDirectives.contains($0.name) }) {
            let models = objectOrder.filter(isModel)
            throw error(at: field.offset, "unknown model '\(name)' for the @\(directive.name) field '\(field.name)'; "
                        + "no type \(name) @model is declared\(Suggestions.didYouMean(name, in: models))")
        }
        let known = Array(scalars) + Array(enums.keys) + Array(objects.keys)
        throw error(at: field.offset, "unknown type '\(name)' for field '\(field.name)'\(Suggestions.didYouMean(name, in: known))")
    }

    static func modelField(_ name: String, _ reference: TypeReference, _ type: FieldType) -> ModelField {
        var required = false
        var isArray = false
        var arrayNullable = true
        var current = reference
        if case .nonNull(let inner) = current {
            current = inner
            required = true
        }
        if case .list(let element) = current {
            isArray = true
            arrayNullable = !required
            required = false
            if case .nonNull = element { required = true }
        }
        return ModelField(name: name, type: type, isArray: isArray, isRequired: required, isArrayNullable: arrayNullable)
    }

    // MARK: Directive arguments

    func string(_ directive: LocatedDirective, _ name: String) throws(SchemaError) -> String? {
        switch directive.argument(name) {
        case nil, .null?: return nil
        case .string(let value)?: return try checkedName(value, directive, name)
        default: throw error(at: directive.offset, "@\(directive.name)(\(name):) must be a string")
        }
    }

    /// Directive arguments gqlc reads are names it writes into documents (index, query field, key fields).
    /// Index names are DynamoDB's (`gsi-Post.comments`), checked by their own rule.
    func checkedName(_ text: String, _ directive: LocatedDirective, _ argument: String) throws(SchemaError) -> String {
        if (directive.name == "index" && argument == "name") || argument == "indexName" {
            guard GraphQLName.isIndexName(text) else {
                throw error(at: directive.offset, "@\(directive.name)(\(argument):) " + GraphQLName.notAnIndexNameMessage(text))
            }
            return text
        }
        guard GraphQLName.isValid(text) else {
            throw error(at: directive.offset, "@\(directive.name)(\(argument):) " + GraphQLName.notANameMessage(text))
        }
        return text
    }

    func stringList(_ directive: LocatedDirective, _ name: String) throws(SchemaError) -> [String] {
        switch directive.argument(name) {
        case nil, .null?: return []
        case .string(let single)?: return [try checkedName(single, directive, name)]
        case .list(let values)?:
            var result: [String] = []
            for value in values {
                guard case .string(let text) = value else {
                    throw error(at: directive.offset, "@\(directive.name)(\(name):) must be a list of field names as strings")
                }
                result.append(try checkedName(text, directive, name))
            }
            return result
        default: throw error(at: directive.offset, "@\(directive.name)(\(name):) must be a list of field names as strings")
        }
    }
}

extension String {
    /// The string with its first character lower-cased: `Post` → `post`.
    var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}

extension InputValue {
    /// The value as JSON (enum values become strings, numbers keep their text).
    var jsonValue: JSONValue {
        switch self {
        case .variable(let name): return .string("$" + name)
        case .int(let text), .float(let text): return JSONNumber(text).map(JSONValue.number) ?? .string(text)
        case .string(let text), .enumValue(let text): return .string(text)
        case .boolean(let flag): return .bool(flag)
        case .null: return .null
        case .list(let values): return .array(values.map(\.jsonValue))
        case .object(let fields): return .object(JSONObject(fields.map { .init(key: $0.name, value: $0.value.jsonValue) }))
        }
    }
}
