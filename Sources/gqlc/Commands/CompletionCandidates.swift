import GQLCore

/// `gqlc __complete KIND MODEL [--schema FILE]`: the words the completion scripts offer for a model, one per
/// line, read from the schema that `--schema`, `$GQLC_SCHEMA` or the nearest amplify_outputs.json names.
/// Hidden from help: it exists for the scripts. Any problem prints nothing (completion must stay quiet).
enum CompletionCandidates {
    static let commandName = "__complete"

    /// What is being completed.
    enum Kind: String, Choice {
        /// `FIELD=` arguments of create and update: fields that can be set, and belongs-to associations.
        case assign
        /// `FIELD=` arguments of update: as `assign`, without the key fields, which pick the record instead.
        case change
        /// `--where` and `--if`: filterable fields and belongs-to associations.
        case `where`
        /// `--fields`: the model's fields, and one level into its associations.
        case fields
        /// `--include`: association paths, two levels deep.
        case include
        /// `--index`: the query fields of the model's secondary indexes.
        case index
    }

    static func run(_ arguments: [String], environment: [String: String], console: Console) -> ExitCode {
        guard arguments.count >= 2, let kind = Kind.parse(arguments[0]) else { return .usage }
        var schemaPath = environment["GQLC_SCHEMA"]
        if let index = arguments.firstIndex(of: "--schema"), index + 1 < arguments.count { schemaPath = arguments[index + 1] }
        guard let path = schemaPath ?? SchemaDiscovery.currentDirectory().flatMap(SchemaDiscovery.find(from:)),
            let schema = try? SchemaLoader.load(path: path).schema, let model = schema.models[arguments[1]]
        else { return .usage }
        let words = self.words(kind, model: model, schema: schema)
        console.output.write(words.isEmpty ? "" : words.joined(separator: "\n") + "\n")
        return .success
    }

    static func words(_ kind: Kind, model: Model, schema: ModelSchema) -> [String] {
        switch kind {
        case .assign, .change:
            return model.fields.filter { field in
                guard !field.isReadOnly, kind == .assign || !model.isKeyField(field.name) else { return false }
                guard let relation = schema.relationship(of: field) else { return !field.type.isModel }
                return relation.kind == .belongsTo
            }.map(\.name)
        case .where:
            return model.fields.filter { field in
                switch field.type {
                case .scalar, .enumeration: return true
                case .nonModel, .input: return false
                case .model: return schema.relationship(of: field)?.kind == .belongsTo
                }
            }.map(\.name)
        case .fields:
            var words: [String] = []
            for field in model.fields {
                words.append(field.name)
                guard let relation = schema.relationship(of: field), let related = schema.models[relation.relatedModel] else {
                    continue
                }
                let prefix = relation.kind == .hasMany ? "\(field.name).items." : "\(field.name)."
                words += related.fields.filter { !$0.type.isModel }.map { prefix + $0.name }
            }
            return words
        case .include:
            var words: [String] = []
            for field in model.relationshipFields {
                words.append(field.name)
                guard let related = schema.relationship(of: field).flatMap({ schema.models[$0.relatedModel] }) else { continue }
                words += related.relationshipFields.map { "\(field.name).\($0.name)" }
            }
            return words
        case .index:
            return model.indexes.compactMap(\.queryField)
        }
    }
}
