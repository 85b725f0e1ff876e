/// Type-system definitions (GraphQL spec, October 2021, section 3), for reading schema SDL.
extension Parser {
    mutating func parseTypeSystemDocument() throws(GraphQLSyntaxError) -> [TypeSystemDefinition] {
        guard token.kind != .endOfFile else {
            throw error("the schema is empty; expected type, enum, input or other type definitions", at: token.start)
        }
        var definitions: [TypeSystemDefinition] = []
        while token.kind != .endOfFile {
            try skipDescription()
            definitions.append(try parseTypeSystemDefinition())
        }
        return definitions
    }

    private mutating func parseTypeSystemDefinition() throws(GraphQLSyntaxError) -> TypeSystemDefinition {
        let keywords = ["schema", "scalar", "type", "interface", "union", "enum", "input", "directive", "extend"]
        guard token.kind == .name, keywords.contains(token.value) else {
            var hint = ""
            if token.kind == .name {
                if ["query", "mutation", "subscription", "fragment"].contains(token.value) {
                    hint = "; this looks like an operation, and a schema holds type definitions"
                } else if ["import", "export", "const", "let", "var", "function", "module", "require"].contains(token.value) {
                    hint = "; this looks like TypeScript or JavaScript (a Gen 2 amplify/data/resource.ts?), not GraphQL: "
                        + "use the amplify_outputs.json or model-introspection.json generated from it"
                } else {
                    hint = Suggestions.didYouMean(token.value, in: keywords)
                }
            }
            throw error("unexpected \(token.description); expected a type definition (type, enum, input, interface, "
                        + "union, scalar, schema, directive or extend)\(hint)", at: token.start)
        }
        var isExtension = false
        if token.value == "extend" {
            isExtension = true
            try advance()
            guard token.kind == .name, keywords.dropLast().contains(token.value), token.value != "directive" else {
                throw unexpected("expected type, enum, input, interface, union, scalar or schema after 'extend'")
            }
        }
        let keyword = token.value
        let keywordStart = token.start
        try advance()
        guard let kind = TypeSystemDefinition.Kind(rawValue: keyword) else {
            throw error("unknown definition '\(keyword)'", at: keywordStart)
        }
        var definition = TypeSystemDefinition(
            kind: kind, name: kind == .schema ? "schema" : "", isExtension: isExtension, directives: [], fields: [],
            enumValues: [], typeNames: [], operationTypes: [], offset: keywordStart)
        switch kind {
        case .schema:
            definition.directives = try parseLocatedDirectives()
            if token.kind == .braceOpen { definition.operationTypes = try parseOperationTypes() }
        case .directive:
            guard token.kind == .at else { throw unexpected("expected '@' and a name after 'directive'") }
            try advance()
            definition.offset = token.start
            definition.name = try expectName("expected a directive name after '@'")
            if token.kind == .parenOpen { definition.fields = try parseFieldList(open: .parenOpen, close: .parenClose, input: true) }
            if token.kind == .name, token.value == "repeatable" { try advance() }
            guard token.kind == .name, token.value == "on" else { throw unexpected("expected 'on' and directive locations") }
            try advance()
            if token.kind == .pipe { try advance() }
            repeat {
                if token.kind == .pipe { try advance() }
                definition.typeNames.append(try expectName("expected a directive location such as FIELD_DEFINITION"))
            } while token.kind == .pipe
        default:
            definition.offset = token.start
            definition.name = try expectName("expected a name after '\(keyword)'")
            if (kind == .object || kind == .interface), token.kind == .name, token.value == "implements" {
                try advance()
                if token.kind == .ampersand { try advance() }
                repeat {
                    if token.kind == .ampersand { try advance() }
                    definition.typeNames.append(try expectName("expected an interface name after 'implements'"))
                } while token.kind == .ampersand
            }
            definition.directives = try parseLocatedDirectives()
            switch kind {
            case .object, .interface, .input:
                if token.kind == .braceOpen {
                    definition.fields = try parseFieldList(open: .braceOpen, close: .braceClose, input: kind == .input)
                }
            case .enumeration:
                if token.kind == .braceOpen { definition.enumValues = try parseEnumValues() }
            case .union:
                if token.kind == .equals {
                    try advance()
                    if token.kind == .pipe { try advance() }
                    repeat {
                        if token.kind == .pipe { try advance() }
                        definition.typeNames.append(try expectName("expected a member type name in the union"))
                    } while token.kind == .pipe
                }
            default:
                break
            }
        }
        return definition
    }

    private mutating func parseOperationTypes() throws(GraphQLSyntaxError) -> [(operation: String, type: String)] {
        let open = token.start
        try advance()
        var result: [(operation: String, type: String)] = []
        while token.kind != .braceClose {
            guard token.kind == .name else {
                throw unexpectedOrUnclosed(open: open, closer: "'}'", "expected query, mutation or subscription")
            }
            let operation = token.value
            try advance()
            guard token.kind == .colon else { throw unexpected("expected ':' and a type name after '\(operation)'") }
            try advance()
            result.append((operation, try expectName("expected a type name")))
        }
        try advance()
        return result
    }

    /// `{ name(args): Type @dir … }` for objects, or `name: Type = default @dir` entries for inputs and arguments.
    private mutating func parseFieldList(open: TokenKind, close: TokenKind, input: Bool) throws(GraphQLSyntaxError) -> [FieldDefinition] {
        let openOffset = token.start
        let closer = close == .parenClose ? "')'" : "'}'"
        try enter(at: openOffset)
        try advance()
        var fields: [FieldDefinition] = []
        while token.kind != close {
            let described = try skipDescription()
            guard token.kind == .name else {
                throw unexpectedOrUnclosed(open: openOffset, closer: closer,
                                           described ? "expected a field name after the description" : "expected a field name or \(closer)")
            }
            let offset = token.start
            let name = token.value
            try advance()
            if close == .braceClose, Self.definitionKeywords.contains(name), token.kind == .name {
                // `type Comment …` where a field should be: the '}' before it is missing.
                let position = lexer.source.locate(openOffset).position
                throw error("'\(name) \(token.value)' starts inside the braces opened at \(position); "
                            + "a '}' is missing before it", at: offset)
            }
            var arguments: [FieldDefinition] = []
            if !input, token.kind == .parenOpen {
                arguments = try parseFieldList(open: .parenOpen, close: .parenClose, input: true)
            }
            guard token.kind == .colon else { throw unexpected("expected ':' and a type after '\(name)'") }
            try advance()
            let type = try parseType()
            var defaultValue: InputValue?
            if input, token.kind == .equals {
                try advance()
                defaultValue = try parseValue(const: true)
            } else if token.kind == .equals {
                throw unexpected("a default value belongs to an input field or argument; on a model field, "
                                 + "write @default(value: \"…\")")
            }
            fields.append(FieldDefinition(
                name: name, type: type, arguments: arguments, defaultValue: defaultValue,
                directives: try parseLocatedDirectives(), offset: offset))
        }
        try advance()
        depth -= 1
        return fields
    }

    private mutating func parseEnumValues() throws(GraphQLSyntaxError) -> [EnumValueDefinition] {
        let open = token.start
        try advance()
        var values: [EnumValueDefinition] = []
        while token.kind != .braceClose {
            try skipDescription()
            guard token.kind == .name else {
                if token.kind != .endOfFile, values.count >= 2, let keyword = values.dropLast().last,
                   Self.definitionKeywords.contains(keyword.name), let name = values.last {
                    // `enum A { X Y` then `type Post … {`: the values ran on into the next definition.
                    let position = lexer.source.locate(open).position
                    throw error("'\(keyword.name) \(name.name)' starts inside the braces opened at \(position); "
                                + "a '}' is missing before it", at: keyword.offset)
                }
                throw unexpectedOrUnclosed(open: open, closer: "'}'", "expected an enum value or '}'")
            }
            guard !["true", "false", "null"].contains(token.value) else {
                throw error("'\(token.value)' cannot be an enum value", at: token.start)
            }
            let offset = token.start
            let name = token.value
            try advance()
            values.append(EnumValueDefinition(name: name, directives: try parseLocatedDirectives(), offset: offset))
        }
        try advance()
        return values
    }

    /// Directives with constant arguments, each with the offset of its `@`.
    private mutating func parseLocatedDirectives() throws(GraphQLSyntaxError) -> [LocatedDirective] {
        var directives: [LocatedDirective] = []
        while token.kind == .at {
            let offset = token.start
            try advance()
            let name = try expectName("expected a directive name after '@'")
            let arguments = token.kind == .parenOpen ? try parseArguments(const: true) : []
            directives.append(LocatedDirective(name: name, arguments: arguments, offset: offset))
        }
        return directives
    }

    /// A description string before a definition, field, argument or enum value; true when there was one.
    @discardableResult
    private mutating func skipDescription() throws(GraphQLSyntaxError) -> Bool {
        guard token.kind == .string || token.kind == .blockString else { return false }
        try advance()
        return true
    }

    /// The words that start a type-system definition.
    static let definitionKeywords: Set<String> = ["type", "enum", "input", "interface", "union", "scalar", "extend", "schema", "directive"]
}
