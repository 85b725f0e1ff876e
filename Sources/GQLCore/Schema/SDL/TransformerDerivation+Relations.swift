/// Relationship fields and auth rules of a transformer v2 input schema.
///
/// Foreign keys follow the transformer with `respectPrimaryKeyAttributesOnConnectionField` (the default of
/// new Gen 1 projects): `toCamelCase([Parent, field, keyField])` for each key field of the other side
/// (`blogPostsId`, `project1TeamTeamId`, `project1TeamName`); many-to-many join models named by
/// `relationName` hold `lowerFirst(Model) + upperFirst(partitionKey)` and `lowerFirst(Model) + sortKey`.
extension TransformerDerivation {
    static let relationalDirectives: Set<String> = ["hasMany", "hasOne", "belongsTo", "manyToMany"]

    func relationalDirective(_ field: FieldDefinition) -> LocatedDirective? {
        field.directives.first { Self.relationalDirectives.contains($0.name) }
    }

    /// `toCamelCase` of graphql-transformer-common: the first word lower-first, the others upper-first.
    static func camelCase(_ words: [String]) -> String {
        words.enumerated().map { $0.offset == 0 ? $0.element.lowercasedFirst : $0.element.uppercasedFirst }.joined()
    }

    /// The relationship field with its association; adds generated foreign keys and join models.
    mutating func relationshipField(_ field: FieldDefinition, of model: Model, models: [String: Model]) throws(SchemaError) -> ModelField {
        guard let directive = relationalDirective(field), let type = try fieldType(field, allowModels: true) else {
            return Self.modelField(field.name, field.type, .scalar(field.type.namedType))
        }
        guard case .model(let targetName) = type, let target = models[targetName] else {
            throw error(at: directive.offset, "@\(directive.name) needs a field whose type is a model, but '\(field.name)' "
                        + "is \(type), which has no @model")
        }
        var result = Self.modelField(field.name, field.type, type)
        let references = try stringList(directive, "references")
        let fields = try stringList(directive, "fields")
        if !references.isEmpty {
            let holder = directive.name == "belongsTo" ? model : target
            try checkFields(references, in: holder.fields, model: holder.name, at: directive.offset)
        }
        if !fields.isEmpty { try checkFields(fields, in: model.fields, model: model.name, at: directive.offset) }
        if let indexName = try string(directive, "indexName"), !target.indexes.contains(where: { $0.name == indexName }) {
            let names = target.indexes.map(\.name)
            let known = names.isEmpty ? "; it has no @index" : Suggestions.didYouMean(indexName, in: names)
            throw error(at: directive.offset, "@\(directive.name)(indexName: \"\(indexName)\"): \(targetName) has no index "
                        + "named '\(indexName)'\(known)")
        }
        switch directive.name {
        case "hasMany":
            guard result.isArray else { throw error(at: directive.offset, "@hasMany needs a list field, such as [\(targetName)]") }
            if !references.isEmpty {
                result.association = .hasMany(associatedWith: references)
            } else if !fields.isEmpty || directive.argument("indexName") != nil {
                let back = backReference(in: targetName, to: model.name, kinds: ["belongsTo"], plainOnly: false)
                result.association = .hasMany(associatedWith: back.map { [$0.name] } ?? target.primaryKey.fields)
            } else {
                let keys = foreignKeys(owner: model.name, field: field.name, keysOf: model)
                add(keys, to: targetName)
                result.association = .hasMany(associatedWith: keys.map(\.name))
            }
        case "hasOne":
            guard !result.isArray else { throw error(at: directive.offset, "@hasOne needs a single field, not a list") }
            if !references.isEmpty {
                result.association = .hasOne(associatedWith: references, targetNames: [])
            } else if !fields.isEmpty {
                result.association = .hasOne(associatedWith: target.primaryKey.fields, targetNames: fields)
            } else {
                let keys = foreignKeys(owner: model.name, field: field.name, keysOf: target)
                add(keys, to: model.name)
                result.association = .hasOne(associatedWith: target.primaryKey.fields, targetNames: keys.map(\.name))
            }
        case "belongsTo":
            guard !result.isArray else { throw error(at: directive.offset, "@belongsTo needs a single field, not a list") }
            if !references.isEmpty || !fields.isEmpty {
                result.association = .belongsTo(targetNames: references.isEmpty ? fields : references)
            } else if let parent = backReference(in: targetName, to: model.name, kinds: ["hasMany"]) {
                // The parent's @hasMany made the keys on this model.
                let keys = foreignKeys(owner: targetName, field: parent.name, keysOf: target)
                add(keys, to: model.name)
                result.association = .belongsTo(targetNames: keys.map(\.name))
            } else {
                let keys = foreignKeys(owner: model.name, field: field.name, keysOf: target)
                add(keys, to: model.name)
                result.association = .belongsTo(targetNames: keys.map(\.name))
            }
        default:  // manyToMany
            guard result.isArray else { throw error(at: directive.offset, "@manyToMany needs a list field, such as [\(targetName)]") }
            guard let relationName = try string(directive, "relationName") else { throw relationNameNeeded(directive) }
            addJoinModel(relationName, model, target)
            result.type = .model(relationName)
            result.association = .hasMany(associatedWith: [model.name.lowercasedFirst])
        }
        return result
    }

    func relationNameNeeded(_ directive: LocatedDirective) -> SchemaError {
        error(at: directive.offset, "@manyToMany needs relationName: @manyToMany(relationName: \"PostTags\")")
    }

    /// Each `@manyToMany` relation name must appear on exactly two fields, one on each side, as codegen requires;
    /// a misspelt name would otherwise make a second join model.
    func checkManyToManyPairs() throws(SchemaError) {
        var sides: [(relation: String, offset: Int)] = []
        for name in objectOrder where isModel(name) {
            for field in objects[name]?.fields ?? [] {
                for directive in field.directives where directive.name == "manyToMany" {
                    guard let relation = try string(directive, "relationName") else { throw relationNameNeeded(directive) }
                    sides.append((relation, directive.offset))
                }
            }
        }
        let counts = Dictionary(sides.map { ($0.relation, 1) }, uniquingKeysWith: +)
        for side in sides where counts[side.relation] != 2 {
            let others = counts.keys.filter { $0 != side.relation }
            throw error(at: side.offset, "@manyToMany(relationName: \"\(side.relation)\") is on \(counts[side.relation] ?? 0) "
                        + "field(s); a relation needs one on each of its two models\(Suggestions.didYouMean(side.relation, in: others))")
        }
    }

    /// The field of `modelName` whose type is `target` and that carries one of `kinds` (with `plainOnly`, without
    /// fields or references).
    private func backReference(in modelName: String, to target: String, kinds: Set<String>, plainOnly: Bool = true) -> FieldDefinition? {
        objects[modelName]?.fields.first { field in
            field.type.namedType == target && field.directives.contains { directive in
                kinds.contains(directive.name)
                    && (!plainOnly || (directive.argument("fields") == nil && directive.argument("references") == nil))
            }
        }
    }

    /// `toCamelCase([owner, field, key])` for each key field of `keysOf`, typed as those key fields, optional.
    private func foreignKeys(owner: String, field: String, keysOf model: Model) -> [ModelField] {
        model.keyFields.map { key in
            ModelField(name: Self.camelCase([owner, field, key.name]), type: key.type)
        }
    }

    private mutating func add(_ fields: [ModelField], to model: String) {
        for field in fields where !(addedFields[model] ?? []).contains(where: { $0.name == field.name }) {
            addedFields[model, default: []].append(field)
        }
    }

    /// The join model `relationName` of a many-to-many pair, made when its first side is seen.
    private mutating func addJoinModel(_ relationName: String, _ first: Model, _ second: Model) {
        guard joinModels[relationName] == nil else { return }
        var fields = [ModelField(name: "id", type: .scalar("ID"), isRequired: true)]
        var indexes: [SecondaryIndex] = []
        for side in [first, second] {
            let prefix = side.name.lowercasedFirst
            let keys = side.keyFields.enumerated().map { entry in
                ModelField(name: prefix + (entry.offset == 0 ? entry.element.name.uppercasedFirst : entry.element.name), type: entry.element.type)
            }
            fields += keys
            indexes.append(SecondaryIndex(name: "by" + side.name.uppercasedFirst, queryField: nil, fields: keys.map(\.name)))
        }
        for (side, index) in zip([first, second], indexes) {
            fields.append(ModelField(name: side.name.lowercasedFirst, type: .model(side.name), isRequired: true,
                                     association: .belongsTo(targetNames: index.fields)))
        }
        joinModels[relationName] = Model(name: relationName, pluralName: pluralizer.plural(relationName), fields: fields,
                                         primaryKey: PrimaryKey(), indexes: indexes)
        joinOrder.append(relationName)
    }

    // MARK: Auth

    /// `@auth(rules: [...])` with the defaults codegen writes into model introspection: providers by strategy,
    /// all four operations, `owner` and `cognito:username` for owner rules, `cognito:groups` for group rules.
    func authRules(_ directive: LocatedDirective) throws(SchemaError) -> [AuthRule] {
        guard case .list(let rules)? = directive.argument("rules") else {
            throw error(at: directive.offset, "@auth needs rules: @auth(rules: [{allow: public}])")
        }
        var result: [AuthRule] = []
        for rule in rules {
            guard case .object(let entries) = rule else { throw error(at: directive.offset, "each @auth rule must be an object such as {allow: owner}") }
            func text(_ key: String) -> String? {
                switch entries.first(where: { $0.name == key })?.value {
                case .string(let value)?, .enumValue(let value)?: return value
                default: return nil
                }
            }
            func list(_ key: String) -> [String] {
                switch entries.first(where: { $0.name == key })?.value {
                case .list(let values)?: return values.compactMap { if case .string(let v) = $0 { v } else if case .enumValue(let v) = $0 { v } else { nil } }
                case .string(let value)?, .enumValue(let value)?: return [value]
                default: return []
                }
            }
            let keys = ["allow", "provider", "ownerField", "identityClaim", "groupClaim", "groups", "groupsField",
                        "operations", "queries", "mutations"]
            for entry in entries where !keys.contains(entry.name) {
                throw error(at: directive.offset, "unknown @auth rule key '\(entry.name)'\(Suggestions.didYouMean(entry.name, in: keys))")
            }
            let knownOperations = ["create", "update", "delete", "read", "get", "list", "sync", "listen", "search"]
            for operation in list("operations") where !knownOperations.contains(operation) {
                throw error(at: directive.offset, "unknown @auth operation '\(operation)'"
                            + "\(Suggestions.didYouMean(operation, in: knownOperations))")
            }
            let providers = ["apiKey", "iam", "identityPool", "userPools", "oidc", "function"]
            if let provider = text("provider"), !providers.contains(provider) {
                throw error(at: directive.offset, "unknown @auth provider '\(provider)'\(Suggestions.didYouMean(provider, in: providers))")
            }
            guard let allow = text("allow") else { throw error(at: directive.offset, "an @auth rule needs allow: public, private, owner, groups or custom") }
            let strategies = ["public", "private", "owner", "groups", "custom"]
            guard strategies.contains(allow) else {
                throw error(at: directive.offset, "unknown @auth strategy '\(allow)'\(Suggestions.didYouMean(allow, in: strategies))")
            }
            let operations = list("operations").isEmpty ? ["create", "update", "delete", "read"] : list("operations")
            let defaultProvider = ["public": "apiKey", "custom": "function"][allow] ?? "userPools"
            var authRule = AuthRule(allow: allow, provider: text("provider") ?? defaultProvider, operations: operations)
            switch allow {
            case "owner":
                authRule.ownerField = text("ownerField") ?? "owner"
                authRule.identityClaim = text("identityClaim") ?? "cognito:username"
            case "groups":
                authRule.groups = list("groups")
                authRule.groupsField = text("groupsField")
                authRule.groupClaim = text("groupClaim") ?? "cognito:groups"
            default:
                break
            }
            result.append(authRule)
        }
        return result
    }
}
