/// Models derived from a live API's introspection by the transformer's conventions: `Model<M>Connection` types
/// mark models; `get<M>` gives the key, `list<Plural>` the plural, `Create/Update/Delete<M>Input` the mutations,
/// `onCreate<M>`… the subscriptions; other `Model<M>Connection` queries with a required first argument are
/// index query fields; model-typed fields are belongsTo/hasOne and connection-typed fields hasMany, their
/// foreign keys found by the transformer's names (Gen 1 `blogPostsId`, Gen 2 `blogId`).
///
/// Introspection cannot show auth rules, index names, or which side of a one-to-one pair holds `@hasOne`;
/// ``assumptions`` says what was assumed.
public struct IntrospectedModels: Sendable {
    public var schema: ModelSchema
    /// One line per guess, for `--verbose` and `schema pull`'s summary.
    public var assumptions: [Assumption]

    /// What was assumed or left out, and for what is left out, what can still reach it.
    public struct Assumption: Sendable, Equatable, RemedialMessage {
        public var text: String
        public var remedy: Remedy?

        /// Makes a value from its parts.
        public init(text: String, remedy: Remedy? = nil) {
            self.text = text
            self.remedy = remedy
        }

        /// The line, with the remedy in parentheses said by `name`.
        public func message(remedy name: (Remedy) -> String) -> String {
            remedy.map { "\(text) (\(name($0)))" } ?? text
        }
    }

    public init(_ api: APISchema) {
        var derivation = Derivation(api: api)
        schema = derivation.run()
        assumptions = derivation.assumptions
    }

    /// The note for a custom operation left out; ``leftOutOperations(inAssumptions:)`` reads it back.
    static func leftOutNote(operation: String, why: String) -> Assumption {
        Assumption(text: "the custom operation \(operation) is left out: \(why)", remedy: .rawDocument)
    }

    /// The custom operations left out, by name, with why, from ``assumptions`` written one per line (each with its
    /// remedy in parentheses at the end, in whichever words it was written).
    public static func leftOutOperations(inAssumptions text: String) -> [String: String] {
        let head = "the custom operation "
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix(head) && line.hasSuffix(")") {
            guard let remedy = line.ranges(of: " (").last else { continue }
            let rest = line[..<remedy.lowerBound].dropFirst(head.count)
            guard let colon = rest.firstRange(of: " is left out: ") else { continue }
            found[String(rest[..<colon.lowerBound])] = String(rest[colon.upperBound...])
        }
        return found
    }
}

private struct Derivation {
    let api: APISchema
    var assumptions: [IntrospectedModels.Assumption] = []
    /// Model names in the server's type order.
    var modelNames: [String] = []
    let pluralizer = Pluralizer()

    init(api: APISchema) {
        self.api = api
        modelNames = api.types.filter { type in
            type.kind == "OBJECT" && !type.name.hasPrefix("__") && api.type(named: "Model\(type.name)Connection")?
                .fields.contains { $0.name == "items" && $0.type.namedType == type.name } == true
        }.map(\.name)
    }

    func rootFields(_ name: String?) -> [APISchema.Field] { name.flatMap { api.type(named: $0)?.fields } ?? [] }

    mutating func run() -> ModelSchema {
        var schema = ModelSchema()
        var used: Set<String> = []  // root fields that belong to models
        var bases: [String: Model] = [:]
        for name in modelNames {
            bases[name] = baseModel(name, used: &used)
        }
        for name in modelNames {
            guard var model = bases[name], let type = api.type(named: name) else { continue }
            for field in type.fields {
                guard let index = model.fields.firstIndex(where: { $0.name == field.name }) else { continue }
                model.fields[index].association = association(of: model.fields[index], in: model, models: bases)
            }
            schema.models[name] = model
        }
        let transformerEnums: Set<String> = ["ModelSortDirection", "ModelAttributeTypes", "ModelMutationMap"]
        for type in api.types where type.kind == "ENUM" && !type.name.hasPrefix("__") && !transformerEnums.contains(type.name) {
            schema.enums[type.name] = EnumType(name: type.name, values: type.enumValues)
        }
        var pending = schema.models.values.flatMap(\.fields).compactMap(\.nonModelName)
        var pendingInputs: [String] = []
        for (kind, root) in [(CustomOperation.Kind.query, api.queryType), (.mutation, api.mutationType), (.subscription, api.subscriptionType)] {
            for field in selectable(rootFields(root), of: nil) where !used.contains(field.name) {
                let result = modelField(field.name, field.type)
                let arguments = field.arguments.map { modelField($0.name, $0.type) }
                schema.customOperations.append(CustomOperation(kind: kind, name: field.name, result: result, arguments: arguments))
                pending += [result.nonModelName].compactMap { $0 }
                pendingInputs += arguments.compactMap(\.inputName)
            }
        }
        // The input types custom operations' arguments reach, as model introspection's `inputs`.
        while let name = pendingInputs.popLast() {
            guard schema.inputs[name] == nil, let type = api.type(named: name), type.kind == "INPUT_OBJECT" else { continue }
            let fields = type.inputFields.map { modelField($0.name, $0.type) }
            schema.inputs[name] = NonModelType(name: name, fields: fields)
            pendingInputs += fields.compactMap(\.inputName)
        }
        while let name = pending.popLast() {
            guard schema.nonModels[name] == nil, let type = api.type(named: name), type.kind == "OBJECT" else { continue }
            let fields = selectable(type.fields, of: name).map { modelField($0.name, $0.type) }
            schema.nonModels[name] = NonModelType(name: name, fields: fields)
            pending += fields.compactMap(\.nonModelName)
        }
        if !modelNames.isEmpty {
            note("auth rules are not visible by introspection; models show none")
        }
        return schema
    }

    /// A field as model introspection writes it: models and connections become `{model}`, other objects
    /// `{nonModel}`, input objects (arguments) `{input}`.
    func modelField(_ name: String, _ type: APISchema.TypeRef) -> ModelField {
        var named = type.namedType
        var reference = type.reference
        let connection = named.hasPrefix("Model") && named.hasSuffix("Connection")
            && modelNames.contains(String(named.dropFirst(5).dropLast(10)))
        if connection {
            named = String(named.dropFirst(5).dropLast(10))
            reference = .list(.named(named))
        }
        let kind = api.type(named: named)?.kind
        let fieldType: FieldType
        if modelNames.contains(named) {
            fieldType = .model(named)
        } else if kind == "ENUM" {
            fieldType = .enumeration(named)
        } else if kind == "INPUT_OBJECT" {
            fieldType = .input(named)
        } else if kind == "OBJECT" {
            fieldType = .nonModel(named)
        } else {
            fieldType = .scalar(named)
        }
        return TransformerDerivation.modelField(name, reference, fieldType)
    }

    /// Fields, key, plural, operation names and index query fields of one model.
    mutating func baseModel(_ name: String, used: inout Set<String>) -> Model {
        let type = api.type(named: name)
        let connection = "Model\(name)Connection"
        let queries = rootFields(api.queryType)
        var fields = selectable(type?.fields ?? [], of: name).map { modelField($0.name, $0.type) }
        let createInputFields = api.type(named: "Create\(name)Input")?.inputFields
        let createInput = createInputFields?.map(\.name)
        // Timestamps, renamed ones (`timestamps: {createdAt: "createdOn"}`) included: the server sets them, so the
        // create input lacks them.
        for index in fields.indices where fields[index].type == .scalar("AWSDateTime") && !fields[index].isArray {
            guard let createInput, !createInput.contains(fields[index].name) else { continue }
            fields[index].isReadOnly = true
            fields[index].isRequired = false
            if !["createdAt", "updatedAt"].contains(fields[index].name) {
                note("\(name).\(fields[index].name) is taken as a timestamp the server sets (it is not in Create\(name)Input)")
            }
        }
        // A field the record always has but a create may leave out (a @default) is one the server fills in: the
        // create input says so by making it optional.
        if let createInputFields {
            for index in fields.indices where fields[index].isRequired && !fields[index].isReadOnly {
                let input = createInputFields.first { $0.name == fields[index].name }
                if let input, input.type.kind != "NON_NULL" { fields[index].hasDefault = true }
            }
        }
        let gets = queries.filter { $0.type.namedType == name && $0.type.kind != "LIST" && !$0.arguments.isEmpty
            && $0.arguments.allSatisfy { $0.type.kind == "NON_NULL" } }
        let get = gets.first { $0.name == "get" + name.uppercasedFirst } ?? gets.first
        let lists = queries.filter { $0.type.namedType == connection }
        let list = lists.first { field in field.name.hasPrefix("list") && !field.arguments.contains { $0.type.kind == "NON_NULL" } }
            ?? lists.first { field in !field.arguments.contains { $0.type.kind == "NON_NULL" } }
        var pluralName = pluralizer.plural(name)
        if let list, list.name.hasPrefix("list") {
            let fromName = String(list.name.dropFirst(4))
            if fromName.lowercased() == pluralName.lowercased() || list.name == "list" + fromName { pluralName = fromName }
        }
        var primaryKey = PrimaryKey()
        if let get {
            let keys = get.arguments.map(\.name)
            primaryKey = PrimaryKey(partitionKey: keys[0], sortKeys: Array(keys.dropFirst()))
        } else if let delete = api.type(named: "Delete\(name)Input") {
            let keys = delete.inputFields.filter { $0.type.kind == "NON_NULL" }.map(\.name)
            if let first = keys.first { primaryKey = PrimaryKey(partitionKey: first, sortKeys: Array(keys.dropFirst())) }
        }
        var operations = ModelOperations(modelName: name, pluralName: pluralName)
        operations.get = get?.name
        operations.list = list?.name
        let mutations = rootFields(api.mutationType)
        operations.create = mutations.first { $0.type.namedType == name && $0.arguments.first?.type.namedType == "Create\(name)Input" }?.name
        operations.update = mutations.first { $0.type.namedType == name && $0.arguments.first?.type.namedType == "Update\(name)Input" }?.name
        operations.delete = mutations.first { $0.type.namedType == name && $0.arguments.first?.type.namedType == "Delete\(name)Input" }?.name
        let subscriptions = rootFields(api.subscriptionType).filter { $0.type.namedType == name }.map(\.name)
        for (kind, path) in [("onCreate", \ModelOperations.onCreate), ("onUpdate", \.onUpdate), ("onDelete", \.onDelete)] {
            let expected = kind + name.uppercasedFirst
            operations[keyPath: path] = subscriptions.first { $0 == expected }
        }
        for operation in operations.named.compactMap(\.name) { used.insert(operation) }

        var indexes: [SecondaryIndex] = []
        for field in lists where field.name != list?.name {
            used.insert(field.name)  // index queries, and DataStore's sync<Plural>: model machinery, not custom queries
            guard let partition = field.arguments.first, partition.type.kind == "NON_NULL" else { continue }
            var keyFields = [partition.name]
            let known: Set<String> = ["filter", "limit", "nextToken", "sortDirection"]
            if let sortArgument = field.arguments.dropFirst().first(where: { !known.contains($0.name) }) {
                let conditionType = sortArgument.type.namedType
                if conditionType.hasSuffix("CompositeKeyConditionInput"),
                   let composite = api.type(named: String(conditionType.dropLast("ConditionInput".count)) + "Input") {
                    keyFields += composite.inputFields.map(\.name)
                } else {
                    keyFields.append(sortArgument.name)
                }
            }
            indexes.append(SecondaryIndex(name: field.name, queryField: field.name, fields: keyFields))
        }
        if !indexes.isEmpty {
            note("\(name): index names are not visible by introspection; each index is named after its query field")
        }
        return Model(name: name, pluralName: pluralName, fields: fields, primaryKey: primaryKey, indexes: indexes, operations: operations)
    }

    /// The association of a model-typed field, by the transformer's foreign-key names.
    mutating func association(of field: ModelField, in model: Model, models: [String: Model]) -> Association? {
        guard case .model(let targetName) = field.type, let target = models[targetName] else { return nil }
        if field.isArray {
            // hasMany: the child's keys that point at this model through this field.
            if let keys = childKeys(child: target, parent: model, field: field.name) { return .hasMany(associatedWith: keys) }
            if let back = target.fields.first(where: { !$0.isArray && $0.type == .model(model.name) }) {
                return .hasMany(associatedWith: [back.name])  // the child's belongsTo field, whose keys it names
            }
            note("\(model.name).\(field.name): no foreign key to \(model.name) found on \(targetName)")
            return .hasMany(associatedWith: [])
        }
        // Gen 1 implicit belongsTo: the keys the parent's hasMany put on this model.
        for parentField in target.fields where parentField.isArray && parentField.type == .model(model.name) {
            let names = target.keyFields.map { TransformerDerivation.camelCase([targetName, parentField.name, $0.name]) }
            if !names.isEmpty, names.allSatisfy({ model.field(named: $0) != nil }) { return .belongsTo(targetNames: names) }
        }
        let ownKeys = target.keyFields.map { TransformerDerivation.camelCase([model.name, field.name, $0.name]) }
        let reciprocal = target.fields.first { !$0.isArray && $0.type == .model(model.name) }
        if !ownKeys.isEmpty, ownKeys.allSatisfy({ model.field(named: $0) != nil }) {
            // Gen 1 one-to-one: each side has its own keys; which side declared @hasOne is not visible.
            let otherHasKeys = reciprocal.map { other in
                model.keyFields.map { TransformerDerivation.camelCase([targetName, other.name, $0.name]) }
                    .allSatisfy { target.field(named: $0) != nil }
            } ?? false
            if otherHasKeys {
                let first = modelNames.firstIndex(of: model.name) ?? 0 < modelNames.firstIndex(of: targetName) ?? 0
                let pair = [model.name + "." + field.name, targetName + "." + (reciprocal?.name ?? "")]
                let (parent, child) = first ? (pair[0], pair[1]) : (pair[1], pair[0])
                note("\(parent) is taken as @hasOne and \(child) as @belongsTo (each holds keys; the model the API lists first is taken as the parent)")
                if !first { return .belongsTo(targetNames: ownKeys) }
            }
            return .hasOne(associatedWith: target.primaryKey.fields, targetNames: ownKeys)
        }
        // Gen 2 references and Gen 1 fields: keys named after the other model, or after this field, on this one.
        if let keys = referenceKeys(on: model, to: target, via: field.name) {
            note("\(model.name).\(field.name) is taken as @belongsTo \(targetName) through " + keys.joined(separator: ", "))
            return .belongsTo(targetNames: keys)
        }
        // Gen 2 hasOne: the keys are on the child.
        if let keys = referenceKeys(on: target, to: model, via: reciprocal?.name) {
            note("\(model.name).\(field.name) is taken as @hasOne \(targetName) through \(targetName)." + keys.joined(separator: ", "))
            return .hasOne(associatedWith: keys, targetNames: [])
        }
        note("\(model.name).\(field.name): no foreign key to \(targetName) found")
        return .belongsTo(targetNames: [])
    }

    /// The fields model introspection can describe: those of an interface or union type are left out (it has
    /// neither, as the @model SDL reader leaves them out), and said so; `owner` nil for root fields.
    mutating func selectable(_ fields: [APISchema.Field], of owner: String?) -> [APISchema.Field] {
        fields.filter { field in
            guard let kind = api.type(named: field.type.namedType)?.kind, kind == "INTERFACE" || kind == "UNION" else { return true }
            let why = "its type \(field.type.namedType) is \(kind == "UNION" ? "a union" : "an interface"), "
                + "which model introspection cannot describe"
            if let owner {
                note(IntrospectedModels.Assumption(text: "\(owner).\(field.name) is left out: \(why)", remedy: .rawDocument))
            } else {
                note(IntrospectedModels.leftOutNote(operation: field.name, why: why))
            }
            return false
        }
    }

    /// Records a guess once.
    mutating func note(_ text: String) { note(IntrospectedModels.Assumption(text: text)) }

    mutating func note(_ assumption: IntrospectedModels.Assumption) {
        if !assumptions.contains(assumption) { assumptions.append(assumption) }
    }

    /// The fields on `child` that hold `parent`'s key for the parent's list field `field`.
    func childKeys(child: Model, parent: Model, field: String) -> [String]? {
        var names: [String] = []
        for key in parent.keyFields {
            let candidates = [TransformerDerivation.camelCase([parent.name, field, key.name]),
                              parent.name.lowercasedFirst + key.name.uppercasedFirst, parent.name.lowercasedFirst + key.name]
            guard let found = candidates.first(where: { child.field(named: $0) != nil }) else { return nil }
            names.append(found)
        }
        return names.isEmpty ? nil : names
    }

    /// `<other><Key>` on `model` (or the key's own name when it starts with the other model's name), or the same
    /// named after the belongs-to field `field`: Gen 2's `postId` + `postTitle` for `post: Post3` keyed by
    /// `(postId, title)`.
    func referenceKeys(on model: Model, to other: Model, via field: String? = nil) -> [String]? {
        let prefixes = [other.name.lowercasedFirst] + (field.map { [$0] } ?? [])
        var names: [String] = []
        for key in other.keyFields {
            let candidates = prefixes.flatMap { prefix in
                [prefix + key.name.uppercasedFirst] + (key.name.hasPrefix(prefix) ? [key.name] : [])
            }
            guard let found = candidates.first(where: { model.field(named: $0) != nil }) else { return nil }
            names.append(found)
        }
        return names.isEmpty ? nil : names
    }
}

extension ModelField {
    /// The embedded type's name, for non-model fields.
    var nonModelName: String? { if case .nonModel(let name) = type { name } else { nil } }
    /// The input type's name, for arguments and input fields of an input type.
    var inputName: String? { if case .input(let name) = type { name } else { nil } }
}
