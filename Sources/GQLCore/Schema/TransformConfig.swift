/// A Gen 1 API's `amplify/backend/api/<name>/transform.conf.json`, for its conflict detection: `ResolverConfig`
/// holds `project` (every model) and `models.<Name>` (one model, over the project's), each with
/// `ConflictDetection: VERSION` and a `ConflictHandler` (AUTOMERGE, OPTIMISTIC_CONCURRENCY, LAMBDA).
public enum TransformConfig {
    /// The file's name, beside the API's `schema.graphql` (or its `schema/` folder).
    public static let fileName = "transform.conf.json"

    /// The `transform.conf.json` of the Gen 1 API whose `@model` schema is `schemaPath`, when there is one.
    public static func path(forSchema schemaPath: String) -> String? {
        var trimmed = schemaPath
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let directory = trimmed.lastIndex(of: "/").map { String(trimmed[..<$0]) } ?? "."
        let candidate = (directory.isEmpty ? "" : directory) + "/" + fileName
        return SchemaDiscovery.isRegularFile(candidate) ? candidate : nil
    }

    /// The schema with the conflict detection the file at `path` configures.
    public static func apply(path: String, to schema: ModelSchema) throws(SchemaError) -> ModelSchema {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.bytes(atPath: path)
        } catch {
            throw SchemaError(file: path, location: "", message: error.reason)
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw SchemaError(file: path, location: "\(error.line):\(error.column)", message: error.message)
        }
        let root = JSONNode(value: json, path: "", file: path)
        guard let resolvers = try root.optional("ResolverConfig") else { return schema }
        let project = try detection(try resolvers.optional("project"), source: "\(fileName) (project)")
        var overrides: [String: ConflictDetection?] = [:]
        if let models = try resolvers.optional("models") {
            for (name, node) in try models.members() {
                guard schema.models[name] != nil else {
                    let hint = Suggestions.didYouMean(name, in: schema.modelNames)
                    throw node.error("no model \(name) in the schema" + hint)
                }
                overrides[name] = try detection(node, source: "\(fileName) (models.\(name))")
            }
        }
        var schema = schema
        for (name, var model) in schema.models {
            ConflictDetection.enable(overrides[name] ?? project, on: &model)
            schema.models[name] = model
        }
        return schema
    }

    /// One `ResolverConfig` entry: nil without `ConflictDetection: VERSION`.
    private static func detection(_ node: JSONNode?, source: String) throws(SchemaError) -> ConflictDetection? {
        guard let node, let kind = try node.optionalString("ConflictDetection") else { return nil }
        guard kind == "VERSION" else {
            if kind == "NONE" { return nil }
            throw node.child("ConflictDetection", .string(kind)).error("expected VERSION or NONE, found \(kind)")
        }
        guard let text = try node.optionalString("ConflictHandler") else { return ConflictDetection(handler: nil, source: source) }
        guard let handler = ConflictHandler(rawValue: text) else {
            let names = ConflictHandler.allCases.map(\.rawValue)
            throw node.child("ConflictHandler", .string(text)).error(
                "unknown conflict handler \(text); expected \(names.joined(separator: ", "))" + Suggestions.didYouMean(text, in: names))
        }
        return ConflictDetection(handler: handler, source: source)
    }
}
