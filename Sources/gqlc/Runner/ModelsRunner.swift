import GQLCore

/// `gqlc models [MODEL]`: the schema's model names, or one model's fields, key, associations,
/// indexes and operation names.
enum ModelsRunner {
    static func run(_ invocation: ModelsInvocation, session: Session, diagnostics: Diagnostics) -> ExitCode {
        let schema: ModelSchema
        do {
            schema = try session.modelSchema(in: session.schemaFile(required: true))
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        guard let name = invocation.model else {
            session.console.output.write(schema.modelNames.joined(separator: "\n") + "\n")
            return .success
        }
        guard let model = schema.models[name] else {
            diagnostics.error("unknown model '\(name)'\(Suggestions.didYouMean(name, in: schema.modelNames))")
            return .usage
        }
        session.console.output.write(describe(model, in: schema).joined(separator: "\n") + "\n")
        return .success
    }

    /// The description, line by line.
    static func describe(_ model: Model, in schema: ModelSchema) -> [String] {
        var lines = ["\(model.name) (plural \(model.pluralName))"]
        let key = model.primaryKey
        lines.append("  key: " + key.fields.joined(separator: ", ")
            + (key.sortKeys.isEmpty ? "" : "  (partition \(key.partitionKey), sort \(key.sortKeys.joined(separator: ", ")))"))

        lines.append("  fields:")
        let scalars = model.fields.filter { !$0.type.isModel }
        let width = scalars.map(\.name.count).max() ?? 0
        for field in scalars {
            var notes: [String] = []
            if key.fields.contains(field.name) { notes.append("key") }
            if field.isReadOnly { notes.append("read-only") }
            if case .nonModel = field.type { notes.append("embedded") }
            if case .enumeration(let enumName) = field.type, let values = schema.enums[enumName]?.values {
                notes.append("one of " + values.joined(separator: ", "))
            }
            let padding = String(repeating: " ", count: width - field.name.count)
            lines.append("    \(field.name)\(padding)  \(typeText(field))" + (notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))"))
        }

        let relations = model.fields.compactMap { field in schema.relationship(of: field).map { (field, $0) } }
        if !relations.isEmpty {
            lines.append("  associations:")
            for (field, relation) in relations {
                let holder = relation.keyHolder == .thisModel ? model.name : relation.relatedModel
                let target = relation.kind == .hasMany ? "[\(relation.relatedModel)]" : relation.relatedModel
                lines.append("    \(field.name) → \(target)  (\(relation.kind.rawValue); key on \(holder): "
                    + relation.foreignKeys.joined(separator: ", ") + ")")
            }
        }

        if !model.indexes.isEmpty {
            lines.append("  indexes:")
            for index in model.indexes {
                let query = index.queryField.map { "query \($0)" } ?? "no query field"
                lines.append("    \(index.name) (\(index.fields.joined(separator: ", ")))  \(query)")
            }
        }

        let operations = model.operations
        let named: [(String, String?)] = [
            ("get", operations.get), ("list", operations.list), ("create", operations.create),
            ("update", operations.update), ("delete", operations.delete), ("onCreate", operations.onCreate),
            ("onUpdate", operations.onUpdate), ("onDelete", operations.onDelete),
        ]
        lines.append("  operations:")
        for (kind, name) in named {
            lines.append("    \(kind)\(String(repeating: " ", count: max(0, 9 - kind.count))) \(name ?? "(disabled)")")
        }
        return lines
    }

    /// `String!`, `[String!]`, `PostStatus`.
    static func typeText(_ field: ModelField) -> String {
        let element = field.type.description + (field.isRequired ? "!" : "")
        guard field.isArray else { return element }
        return "[\(element)]" + (field.isArrayNullable ? "" : "!")
    }
}
