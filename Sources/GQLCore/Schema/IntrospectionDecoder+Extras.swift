/// The parts of model introspection gqlc only describes: auth rules and custom operations.
extension IntrospectionDecoder {
    /// `[{"allow": "owner", "provider": "userPools", "ownerField": "owner", "operations": [...]}, ...]`.
    static func decodeAuthRules(_ node: JSONNode) throws(SchemaError) -> [AuthRule] {
        var rules: [AuthRule] = []
        for rule in try node.elements() {
            rules.append(AuthRule(
                allow: try rule.required("allow").string(), provider: try rule.optionalString("provider"),
                operations: try rule.optional("operations")?.stringList() ?? [],
                ownerField: try rule.optionalName("ownerField"), identityClaim: try rule.optionalString("identityClaim"),
                groups: try rule.optional("groups")?.stringList() ?? [], groupsField: try rule.optionalName("groupsField"),
                groupClaim: try rule.optionalString("groupClaim")))
        }
        return rules
    }

    /// The top-level `queries`, `mutations` and `subscriptions` maps. Each entry is shaped like a field
    /// (its result type) with `arguments` shaped like fields; an argument's `name` wins over its map key.
    static func decodeCustomOperations(_ root: JSONNode) throws(SchemaError) -> [CustomOperation] {
        var operations: [CustomOperation] = []
        for (key, kind) in [("queries", CustomOperation.Kind.query), ("mutations", .mutation), ("subscriptions", .subscription)] {
            guard let group = try root.optional(key) else { continue }
            for (name, node) in try group.members() {
                let result = try decodeField(node, key: name)
                var arguments: [ModelField] = []
                for (argumentKey, argument) in try node.optional("arguments")?.members() ?? [] {
                    arguments.append(try decodeField(argument, key: argumentKey))
                }
                operations.append(CustomOperation(kind: kind, name: result.name, result: result, arguments: arguments))
            }
        }
        return operations
    }

    /// The top-level `inputs` map: `{"Name": {"name": "Name", "attributes": {field: Field}}}`.
    static func decodeInputs(_ root: JSONNode) throws(SchemaError) -> [String: NonModelType] {
        var inputs: [String: NonModelType] = [:]
        for (key, node) in try root.optional("inputs")?.members() ?? [] {
            let name = try node.name(orKey: key)
            var fields: [ModelField] = []
            for (fieldKey, field) in try node.optional("attributes")?.members() ?? [] {
                fields.append(try decodeField(field, key: fieldKey))
            }
            inputs[name] = NonModelType(name: name, fields: fields)
        }
        return inputs
    }
}
