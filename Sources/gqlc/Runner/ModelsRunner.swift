import GQLCore

/// `gqlc models [MODEL]`: the schema's models (then its enums, embedded types, input types and custom operations),
/// or one model's fields, key, associations, indexes, operation names and auth rules, or one custom operation's
/// arguments and result; JSON with `--output`.
enum ModelsRunner {
    static func run(_ invocation: ModelsInvocation, session: Session, diagnostics: Diagnostics) -> ExitCode {
        let schema: ModelSchema
        do {
            schema = try session.models().schema
        } catch {
            diagnostics.failure(error)
            return error.status
        }
        var model: Model?
        if let name = invocation.model {
            if schema.models[name] == nil, let operation = schema.customOperations.first(where: { $0.name == name }) {
                return describe(operation, in: schema, session: session)
            }
            guard let found = schema.models[name] else {
                let names = schema.modelNames + schema.customOperations.map(\.name)
                let what = schema.customOperations.isEmpty ? "model" : "model or custom operation"
                diagnostics.error("unknown \(what) '\(name)'\(Suggestions.didYouMean(name, in: names))")
                return .usage
            }
            model = found
        }
        if session.globals.outputGiven {
            // JSON: the whole description, or one model; NDJSON: one model per line.
            let value: JSONValue = if let model {
                schema.description(of: model)
            } else if session.globals.output == .ndjson {
                schema.descriptionJSON["models"] ?? []
            } else {
                schema.descriptionJSON
            }
            ResultPrinter(console: session.console, globals: session.globals).print(value)
            return .success
        }
        let lines = model.map { describe($0, in: schema) } ?? overview(schema)
        session.console.output.write(lines.map { $0.oneLine() }.joined(separator: "\n") + "\n")  // free text (auth groups) too
        return .success
    }

    /// Model names one per line (what shell completion reads, up to the first blank line), then the enums,
    /// embedded types and custom operations, when there are any.
    static func overview(_ schema: ModelSchema) -> [String] {
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

    /// A custom operation: its kind, arguments, result and the command that runs it; its JSON object with `--output`.
    static func describe(_ operation: CustomOperation, in schema: ModelSchema, session: Session) -> ExitCode {
        if session.globals.outputGiven {
            ResultPrinter(console: session.console, globals: session.globals).print(schema.description(of: operation))
            return .success
        }
        let command = switch operation.kind {
        case .query: "gqlc query"
        case .mutation: "gqlc mutate"
        case .subscription: "gqlc subscribe"
        }
        var lines = ["\(operation.name) (custom \(operation.kind.rawValue))"]
        lines.append("  arguments:" + (operation.arguments.isEmpty ? " none" : ""))
        let width = operation.arguments.map(\.name.count).max() ?? 0
        for argument in operation.arguments {
            let required = argument.isMandatoryArgument ? "  (required)" : ""
            lines.append("    \(padded(argument.name, width))  \(argument.graphQLType)\(required)")
        }
        lines.append("  returns: \(operation.result.graphQLType)")
        let example = operation.arguments.filter(\.isMandatoryArgument).map { " \($0.name)=VALUE" }.joined()
        lines.append("  run: \(command) \(operation.name)\(example)")
        session.console.output.write(lines.map { $0.oneLine() }.joined(separator: "\n") + "\n")  // free text (auth groups) too
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
    private static func typeSection(_ title: String, _ types: [String: NonModelType]) -> [String] {
        guard !types.isEmpty else { return [] }
        let width = types.keys.map(\.count).max() ?? 0
        return [title] + types.keys.sorted().map { name in
            let fields = types[name]?.fields ?? []
            return "  \(padded(name, width))  " + fields.map { "\($0.name): \($0.graphQLType)" }.joined(separator: ", ")
        }
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

extension ModelsCommand {
    static func run(_ invocation: ModelsInvocation, in context: RunContext) -> ExitCode {
        ModelsRunner.run(invocation, session: context.session, diagnostics: context.diagnostics)
    }
}
