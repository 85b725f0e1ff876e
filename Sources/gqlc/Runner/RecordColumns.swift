import GQLCore

extension ModelCommandRunner {
    /// The columns of `--output table|tsv|raw`: the `--fields` paths as given, else the model's own scalar and
    /// enum fields (not embedded types or associations) in schema order. `raw` needs exactly one scalar field.
    func recordColumns(_ modelName: String, fields: [String]?, format: GlobalOptions.OutputFormat? = nil) throws(RunFailure) -> [String] {
        let format = format ?? globals.output
        guard format.isRecordFormat, let model = schema.models[modelName] else { return [] }
        guard format == .raw else {
            return fields ?? model.fields.filter { field in
                switch field.type {
                case .scalar, .enumeration: true
                case .nonModel, .model, .input: false
                }
            }.map(\.name)
        }
        guard let fields, fields.count == 1, let path = fields.first else {
            throw RunFailure.usage("'\(GlobalOptions.outputOption.flagName) raw' prints one field per line; name it with \(SharedOptions.fields.flagName) FIELD")
        }
        if let problem = scalarProblem(path, in: model) {
            throw RunFailure.usage("'\(GlobalOptions.outputOption.flagName) raw' prints a single scalar field; \(problem): "
                + "use \(GlobalOptions.outputOption.flagName) ndjson and jq")
        }
        return fields
    }

    /// Why `path` does not lead to one scalar value per record, or nil when it does.
    private func scalarProblem(_ path: String, in model: Model) -> String? {
        var fields = model.fields
        let segments = path.split(separator: ".").map(String.init)
        for (index, name) in segments.enumerated() {
            guard let field = fields.first(where: { $0.name == name }) else { return "'\(path)' names no field" }
            let isLast = index == segments.count - 1
            if field.isArray { return "'\(name)' is a list" }
            switch field.type {
            case .scalar, .enumeration:
                if !isLast { return "'\(name)' has no fields" }
            case .nonModel(let type):
                if isLast { return "'\(name)' is an embedded object" }
                fields = schema.nonModels[type]?.fields ?? []
            case .input:
                return "'\(name)' is an input object"
            case .model:
                guard let relation = schema.relationship(of: field), relation.kind != .hasMany,
                    let related = schema.models[relation.relatedModel]
                else { return "'\(name)' is a list of records" }
                if isLast { return "'\(name)' is a record" }
                fields = related.fields
            }
        }
        return nil
    }
}
