/// The checks that refuse what the transformer or GraphQL would refuse, each located with line:column.
extension TransformerDerivation {
    /// A type defined twice (not by `extend`), or a field declared twice in one definition, as GraphQL refuses.
    mutating func checkUnique(_ definition: TypeSystemDefinition) throws(SchemaError) {
        var seen: [String: Int] = [:]
        for field in definition.fields {
            if let first = seen[field.name] {
                throw error(at: field.offset, "field '\(field.name)' of \(definition.name) is declared twice "
                            + "(first at \(document.position(of: first)))")
            }
            seen[field.name] = field.offset
        }
        guard !definition.isExtension else { return }
        if let first = firstDefinitions[definition.name] {
            throw error(at: definition.offset, "\(definition.name) is defined twice (first at \(document.position(of: first))); "
                        + "use 'extend type \(definition.name)' to add to it")
        }
        firstDefinitions[definition.name] = definition.offset
    }

    /// Every directive must be one the transformer knows or one the document declares.
    func checkDirectives() throws(SchemaError) {
        let known = TransformerSchemaReader.knownDirectives.union(declaredDirectives)
        for definition in document.definitions {
            let directives = definition.directives + definition.fields.flatMap(\.directives)
                + definition.enumValues.flatMap(\.directives)
            for directive in directives where !known.contains(directive.name) {
                if let replacement = TransformerSchemaReader.version1Directives[directive.name] {
                    throw error(at: directive.offset, "'@\(directive.name)' is a transformer v1 directive, which gqlc "
                                + "does not read; the v2 schema uses \(replacement)")
                }
                let suggestion = Suggestions.closest(to: directive.name, in: known).map { "; did you mean '@\($0)'?" } ?? ""
                throw error(at: directive.offset, "unknown directive '@\(directive.name)'\(suggestion)")
            }
        }
    }

    func checkFields(_ names: [String], in fields: [ModelField], model: String, at offset: Int) throws(SchemaError) {
        for name in names where !fields.contains(where: { $0.name == name }) {
            if ["createdAt", "updatedAt"].contains(name) {
                // The transformer adds the timestamps after it checks keys, so a key may use one only if declared.
                throw error(at: offset, "'\(name)' is not a field of \(model); to use the timestamp in a key, declare it: "
                            + "\(name): AWSDateTime!")
            }
            throw error(at: offset, "'\(name)' is not a field of \(model)\(Suggestions.didYouMean(name, in: fields.map(\.name)))")
        }
    }
}
