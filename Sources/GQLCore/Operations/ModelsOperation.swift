/// What a schema holds, described for people (lines) or programs (JSON): every model (then the enums, embedded types,
/// input types and custom operations), one model's fields, key, associations, indexes, operation names and auth rules,
/// or one custom operation's arguments and result. Nothing is sent.
public struct ModelsOperation: Sendable {
    /// What is described.
    public enum Subject: Sendable {
        case overview
        case model(Model)
        case customOperation(CustomOperation)
    }

    /// The schema described.
    public let schema: ModelSchema
    /// What is described: the whole schema, one model or one custom operation.
    public let subject: Subject

    /// Describes the model or custom operation `name`, or the whole schema when nil.
    public init(name: String?, schema: ModelSchema) throws(SchemaLookupError) {
        self.schema = schema
        guard let name else {
            subject = .overview
            return
        }
        if let model = schema.models[name] {
            subject = .model(model)
        } else if let operation = schema.customOperations.first(where: { $0.name == name }) {
            subject = .customOperation(operation)
        } else {
            throw SchemaLookupError(name: name, schema: schema)
        }
    }

    /// The description as JSON: the whole schema's (with `modelsOnly`, its models' array), or the subject's.
    public func json(modelsOnly: Bool) -> JSONValue {
        switch subject {
        case .model(let model): schema.description(of: model)
        case .customOperation(let operation): schema.description(of: operation)
        case .overview: modelsOnly ? schema.descriptionJSON["models"] ?? [] : schema.descriptionJSON
        }
    }

    /// The description, line by line: the overview's model names come first, one per line, up to the first blank
    /// line (what shell completion reads).
    public var lines: [String] {
        switch subject {
        case .overview: overview
        case .model(let model): describe(model)
        case .customOperation(let operation): describe(operation)
        }
    }

    private var overview: [String] {
        var sections: [String] = []
        if !schema.enums.isEmpty {
            sections.append("enums:")
            let width = schema.enums.keys.map(\.count).max() ?? 0
            for name in schema.enums.keys.sorted() {
                let values = schema.enums[name]?.values ?? []
                sections.append("  \(padded(name, width))  \(values.joined(separator: ", "))")
            }
        }
        sections += typeSection("embedded types:", schema.nonModels)
        sections += typeSection("input types:", schema.inputs)
        for kind in CustomOperation.Kind.allCases {
            let operations = schema.customOperations.filter { $0.kind == kind }
            guard !operations.isEmpty else { continue }
            sections.append("custom \(kind == .query ? "queries" : kind.rawValue + "s"):")
            for operation in operations {
                let arguments = operation.arguments.map { "\($0.name): \($0.graphQLType)" }.joined(separator: ", ")
                sections.append("  \(operation.name)" + (arguments.isEmpty ? "" : "(\(arguments))") + ": \(operation.result.graphQLType)")
            }
        }
        return schema.modelNames + (sections.isEmpty ? [] : [""] + sections)
    }

    /// A custom operation: its kind, arguments and result.
    private func describe(_ operation: CustomOperation) -> [String] {
        var lines = ["\(operation.name) (custom \(operation.kind.rawValue))"]
        lines.append("  arguments:" + (operation.arguments.isEmpty ? " none" : ""))
        let width = operation.arguments.map(\.name.count).max() ?? 0
        for argument in operation.arguments {
            let required = argument.isMandatoryArgument ? "  (required)" : ""
            lines.append("    \(padded(argument.name, width))  \(argument.graphQLType)\(required)")
        }
        lines.append("  returns: \(operation.result.graphQLType)")
        return lines
    }

    private func describe(_ model: Model) -> [String] {
        var lines = ["\(model.name) (plural \(model.pluralName))"]
        let key = model.primaryKey
        lines.append("  key: " + key.fields.joined(separator: ", ")
            + (key.sortKeys.isEmpty ? "" : "  (partition \(key.partitionKey), sort \(key.sortKeys.joined(separator: ", ")))"))

        lines.append("  fields:")
        let scalars = model.fields.filter { !$0.type.isModel }
        let width = scalars.map(\.name.count).max() ?? 0
        let owners = model.ownerFieldNames
        for field in scalars {
            var notes: [String] = []
            if key.fields.contains(field.name) { notes.append("key") }
            if field.isReadOnly { notes.append("read-only") }
            if owners.contains(field.name) { notes.append("owner field of an auth rule") }
            if case .nonModel = field.type { notes.append("embedded") }
            if case .enumeration(let enumName) = field.type, let values = schema.enums[enumName]?.values {
                notes.append("one of " + values.joined(separator: ", "))
            }
            lines.append("    \(padded(field.name, width))  \(field.graphQLType)" + (notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))"))
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

        lines.append("  operations:")
        for (kind, name) in model.operations.named {
            lines.append("    \(padded(kind, 9)) \(name ?? "(disabled)")")
        }
        lines.append("  auth rules:" + (model.authRules.isEmpty ? " none in the schema" : ""))
        lines += model.authRules.map { "    \($0.summary)" }
        if let detection = model.conflictDetection {
            let handler = detection.handler.map { "\($0.label) (\($0.rawValue))" } ?? "handler not known"
            lines.append("  conflict detection: \(handler), from \(detection.source); sync query "
                + ConflictDetection.syncQuery(of: model))
        }
        return lines
    }

    /// `title` and one line per type: `  Name  field: Type, …`; nothing when there are no types.
    private func typeSection(_ title: String, _ types: [String: NonModelType]) -> [String] {
        guard !types.isEmpty else { return [] }
        let width = types.keys.map(\.count).max() ?? 0
        return [title] + types.keys.sorted().map { name in
            let fields = types[name]?.fields ?? []
            return "  \(padded(name, width))  " + fields.map { "\($0.name): \($0.graphQLType)" }.joined(separator: ", ")
        }
    }

    private func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

/// A name the schema has neither as a model nor as a custom operation.
public struct SchemaLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name looked up.
    public var name: String
    /// Says that the schema has no model or custom operation of that name, as one line.
    public var description: String

    init(name: String, schema: ModelSchema) {
        self.name = name
        let names = schema.modelNames + schema.customOperations.map(\.name)
        let what = schema.customOperations.isEmpty ? "model" : "model or custom operation"
        description = "unknown \(what) '\(name)'\(Suggestions.didYouMean(name, in: names))"
    }
}
