/// The schema as resources: `gqlc://schema` (what `gqlc models --output json` prints, for the models served) and
/// `gqlc://models/NAME` (one model's description).
struct MCPResources {
    let schema: ModelSchema
    let configuration: MCPConfiguration

    static let schemaURI = "gqlc://schema"
    static let modelPrefix = "gqlc://models/"

    var listing: [JSONValue] {
        var resources: [JSONValue] = [[
            "uri": .string(Self.schemaURI), "name": "schema", "title": "Model schema", "mimeType": "application/json",
            "description": "The models (fields, keys, associations, indexes, auth rules), enums, embedded types and custom operations.",
        ]]
        for name in configuration.models {
            resources.append([
                "uri": .string(Self.modelPrefix + name), "name": .string(name), "title": .string("Model \(name)"),
                "mimeType": "application/json", "description": .string("\(name)'s fields, key, associations, indexes and auth rules."),
            ])
        }
        return resources
    }

    func read(_ uri: String) throws(JSONRPC.ErrorObject) -> JSONValue {
        let value: JSONValue
        if uri == Self.schemaURI {
            var whole = schema.descriptionJSON.objectValue ?? [:]
            let served = (whole["models"]?.arrayValue ?? []).filter { model in
                model["name"]?.stringValue.map(configuration.models.contains) ?? false
            }
            whole["models"] = .array(served)
            value = .object(whole)
        } else if uri.hasPrefix(Self.modelPrefix), configuration.models.contains(String(uri.dropFirst(Self.modelPrefix.count))),
                  let model = schema.models[String(uri.dropFirst(Self.modelPrefix.count))] {
            value = schema.description(of: model)
        } else {
            throw .resourceNotFound(uri)
        }
        return ["contents": [["uri": .string(uri), "mimeType": "application/json", "text": .string(value.serialized(.compact))]]]
    }
}
