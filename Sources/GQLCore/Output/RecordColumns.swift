/// The columns a model's records are written in by the record formats (table, TSV, raw): the fields asked for, as dot
/// paths, else the model's own scalar and enum fields (not embedded types or associations) in schema order. Raw
/// writes exactly one scalar field.
public enum RecordColumns {
    /// The columns of `modelName`'s records in `format`; none for JSON and for a model the schema does not have.
    public static func columns(
        of modelName: String, in schema: ModelSchema, fields: [String]?, format: OutputFormat
    ) throws(RecordColumnsError) -> [String] {
        guard format.isRecordFormat, let model = schema.models[modelName] else { return [] }
        guard format == .raw else { return fields ?? ownScalars(model.fields, lists: true) }
        guard let fields, fields.count == 1, let path = fields.first else { throw .rawNeedsOneField }
        if let problem = scalarProblem(path, in: model, schema: schema) { throw .rawNeedsScalar(problem) }
        return fields
    }

    /// The columns of `operation`'s result in `format`: a model's as above; an embedded type's `fields` (else its own
    /// scalar fields), which raw takes one of; none for a scalar result, which raw writes whole and a table cannot.
    public static func columns(
        of operation: CustomOperation, in schema: ModelSchema, fields: [String]?, format: OutputFormat
    ) throws(RecordColumnsError) -> [String] {
        guard format.isRecordFormat else { return [] }
        switch operation.result.type {
        case .model(let name):
            return try columns(of: name, in: schema, fields: fields, format: format)
        case .nonModel(let name):
            guard format != .raw || fields?.count == 1 else { throw .rawNeedsOneField }
            return fields ?? ownScalars(schema.nonModels[name]?.fields ?? [], lists: false)
        case .scalar, .enumeration, .input:
            guard format == .raw else { throw .notRecords(operation: operation.name, type: operation.result.graphQLType, format: format) }
            return []
        }
    }

    /// The names of the scalar and enum fields (and of lists of them when `lists`).
    private static func ownScalars(_ fields: [ModelField], lists: Bool) -> [String] {
        fields.filter { field in
            switch field.type {
            case .scalar, .enumeration: lists || !field.isArray
            case .nonModel, .model, .input: false
            }
        }.map(\.name)
    }

    /// Why `path` does not lead to one scalar value per record, or nil when it does.
    private static func scalarProblem(_ path: String, in model: Model, schema: ModelSchema) -> String? {
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

/// Why records cannot be written as raw values with the fields asked for.
public enum RecordColumnsError: Error, Sendable, Equatable, ParameterizedMessage {
    /// Raw writes one field per line, and none or several were named.
    case rawNeedsOneField
    /// Raw writes one scalar value per record; this says why the field named is not one (`'tags' is a list`).
    case rawNeedsScalar(String)
    /// A custom operation returns a scalar (`type`), which only raw writes, and `format` was asked for.
    case notRecords(operation: String, type: String, format: OutputFormat)

    /// `'output format raw' prints one field per line; …`, with the options named by `name`.
    public func message(naming name: (Parameter) -> String) -> String {
        let (output, raw) = (name(.output), OutputFormat.raw.rawValue)
        return switch self {
        case .rawNeedsOneField: "'\(output) \(raw)' prints one field per line; name it with \(name(.fields)) FIELD"
        case .rawNeedsScalar(let problem):
            "'\(output) \(raw)' prints a single scalar field; \(problem): use \(output) \(OutputFormat.ndjson.rawValue) and jq"
        case .notRecords(let operation, let type, let format):
            "'\(output) \(format.rawValue)' prints records; \(operation) returns \(type): use \(output) \(raw) or "
                + OutputFormat.json.rawValue
        }
    }
}
