/// Byte offsets of the parts of one definition that validation errors point at, in source order.
/// Kept beside the AST so that the AST's equality ignores where things were written.
struct DefinitionLocations: Sendable {
    /// The first token of the definition: its keyword, or `{` for the query shorthand.
    var start: Int
    /// The definition's name, if it has one.
    var name: Int?
    /// The `$` of each variable definition.
    var variableDefinitions: [Int] = []
    /// The name of each fragment spread, in source order.
    var fragmentSpreads: [Int] = []
    /// The `$` of each variable use, in source order.
    var variableUses: [Int] = []
}

/// A recursive-descent parser for executable documents (GraphQL spec, October 2021, section 2).
struct Parser {
    private(set) var lexer: Lexer
    private(set) var token: Token
    var depth = 0
    private var current = DefinitionLocations(start: 0)
    private(set) var locations: [DefinitionLocations] = []

    init(_ source: SourceText) throws(GraphQLSyntaxError) {
        lexer = Lexer(source)
        token = try lexer.next()
    }

    // MARK: Document

    mutating func parseDocument() throws(GraphQLSyntaxError) -> Document {
        guard token.kind != .endOfFile else {
            throw error("the document is empty; expected a query, mutation, subscription or fragment", at: token.start)
        }
        var definitions: [Definition] = []
        while token.kind != .endOfFile {
            current = DefinitionLocations(start: token.start)
            definitions.append(try parseDefinition())
            locations.append(current)
        }
        return Document(definitions: definitions)
    }

    private mutating func parseDefinition() throws(GraphQLSyntaxError) -> Definition {
        if token.kind == .braceOpen {
            return .operation(OperationDefinition(.query, selections: try parseSelectionSet()))
        }
        let expected = "expected query, mutation, subscription, fragment or '{'"
        guard token.kind == .name else { throw unexpected(expected) }
        if token.value == "fragment" { return .fragment(try parseFragmentDefinition()) }
        guard let type = OperationType(rawValue: token.value) else {
            let schemaKeywords = ["schema", "scalar", "type", "interface", "union", "enum", "input", "directive", "extend"]
            if schemaKeywords.contains(token.value) {
                throw error("unexpected \(token.description); a document holds operations and fragments, "
                            + "not type system definitions", at: token.start)
            }
            let keywords = OperationType.allCases.map(\.rawValue) + ["fragment"]
            throw error("unexpected \(token.description); \(expected)"
                        + Suggestions.didYouMean(token.value, in: keywords), at: token.start)
        }
        try advance()
        var name: String?
        if token.kind == .name {
            current.name = token.start
            name = token.value
            try advance()
        }
        let variables = token.kind == .parenOpen ? try parseVariableDefinitions() : []
        let directives = try parseDirectives(const: false)
        guard token.kind == .braceOpen else {
            throw unexpected(name == nil && variables.isEmpty && directives.isEmpty
                ? "expected an operation name, '(', '@' or '{'" : "expected '{' to start the selection set")
        }
        return .operation(OperationDefinition(
            type, name: name, variables: variables, directives: directives, selections: try parseSelectionSet()))
    }

    private mutating func parseFragmentDefinition() throws(GraphQLSyntaxError) -> FragmentDefinition {
        try advance()
        guard token.kind == .name else { throw unexpected("expected a fragment name after 'fragment'") }
        guard token.value != "on" else {
            throw error("a fragment cannot be named 'on'; write 'fragment Name on Type { … }'", at: token.start)
        }
        current.name = token.start
        let name = token.value
        try advance()
        guard token.kind == .name, token.value == "on" else {
            throw unexpected("expected 'on' and a type name after fragment '\(name)'")
        }
        try advance()
        let typeCondition = try expectName("expected a type name after 'on'")
        let directives = try parseDirectives(const: false)
        guard token.kind == .braceOpen else { throw unexpected("expected '{' to start the selection set") }
        return FragmentDefinition(name, on: typeCondition, directives: directives, selections: try parseSelectionSet())
    }

    // MARK: Variables and types

    private mutating func parseVariableDefinitions() throws(GraphQLSyntaxError) -> [VariableDefinition] {
        let open = token.start
        try advance()
        var definitions: [VariableDefinition] = []
        repeat {
            guard token.kind == .dollar else {
                throw unexpectedOrUnclosed(open: open, closer: "')'", definitions.isEmpty
                    ? "expected a variable definition such as '$id: ID!'" : "expected another variable definition or ')'")
            }
            current.variableDefinitions.append(token.start)
            try advance()
            let name = try expectName("expected a variable name after '$'")
            guard token.kind == .colon else { throw unexpected("expected ':' and a type after '$\(name)'") }
            try advance()
            let type = try parseType()
            var defaultValue: InputValue?
            if token.kind == .equals {
                try advance()
                defaultValue = try parseValue(const: true)
            }
            definitions.append(VariableDefinition(
                name, type: type, defaultValue: defaultValue, directives: try parseDirectives(const: true)))
        } while token.kind != .parenClose
        try advance()
        return definitions
    }

    /// A type and nothing after it, for ``TypeReference/init(parsing:)``.
    mutating func parseStandaloneType() throws(GraphQLSyntaxError) -> TypeReference {
        let type = try parseType()
        guard token.kind == .endOfFile else { throw unexpected("expected the end of the type") }
        return type
    }

    mutating func parseType() throws(GraphQLSyntaxError) -> TypeReference {
        var type: TypeReference
        if token.kind == .bracketOpen {
            let open = token.start
            try enter(at: open)
            try advance()
            let inner = try parseType()
            guard token.kind == .bracketClose else {
                throw unexpectedOrUnclosed(open: open, closer: "']'", "expected ']' to close the list type")
            }
            try advance()
            depth -= 1
            type = .list(inner)
        } else {
            type = .named(try expectName("expected a type name or '['"))
        }
        if token.kind == .bang {
            try advance()
            type = .nonNull(type)
        }
        return type
    }

    // MARK: Selections

    private mutating func parseSelectionSet() throws(GraphQLSyntaxError) -> [Selection] {
        let open = token.start
        try enter(at: open)
        try advance()
        guard token.kind != .braceClose else {
            throw error("empty selection set; select at least one field", at: token.start)
        }
        var selections: [Selection] = []
        while token.kind != .braceClose {
            selections.append(try parseSelection(open: open))
        }
        try advance()
        depth -= 1
        return selections
    }

    private mutating func parseSelection(open: Int) throws(GraphQLSyntaxError) -> Selection {
        if token.kind == .spread { return try parseFragment() }
        guard token.kind == .name else {
            throw unexpectedOrUnclosed(open: open, closer: "'}'", "expected a field name, '...' or '}'")
        }
        var name = token.value
        var alias: String?
        try advance()
        if token.kind == .colon {
            try advance()
            alias = name
            name = try expectName("expected a field name after '\(alias ?? ""):'")
        }
        let arguments = token.kind == .parenOpen ? try parseArguments(const: false) : []
        let directives = try parseDirectives(const: false)
        let selections = token.kind == .braceOpen ? try parseSelectionSet() : []
        return .field(Field(name, alias: alias, arguments: arguments, directives: directives, selections: selections))
    }

    /// After `...`: a spread (`...Name`) or an inline fragment (`... on Type`, `... @dir`, `... {`).
    private mutating func parseFragment() throws(GraphQLSyntaxError) -> Selection {
        try advance()
        var typeCondition: String?
        if token.kind == .name {
            guard token.value == "on" else {
                current.fragmentSpreads.append(token.start)
                let name = token.value
                try advance()
                return .fragmentSpread(FragmentSpread(name, directives: try parseDirectives(const: false)))
            }
            try advance()
            typeCondition = try expectName("expected a type name after 'on'")
        } else if token.kind != .at && token.kind != .braceOpen {
            throw unexpected("expected a fragment name, 'on', '@' or '{' after '...'")
        }
        let directives = try parseDirectives(const: false)
        guard token.kind == .braceOpen else { throw unexpected("expected '{' to start the inline fragment") }
        return .inlineFragment(InlineFragment(
            on: typeCondition, directives: directives, selections: try parseSelectionSet()))
    }

    // MARK: Arguments, directives and values

    mutating func parseArguments(const: Bool) throws(GraphQLSyntaxError) -> [Argument] {
        let open = token.start
        try advance()
        var arguments: [Argument] = []
        repeat {
            guard token.kind == .name else {
                throw unexpectedOrUnclosed(
                    open: open, closer: "')'", arguments.isEmpty ? "expected an argument name" : "expected an argument name or ')'")
            }
            let name = token.value
            try advance()
            guard token.kind == .colon else { throw unexpected("expected ':' and a value after argument '\(name)'") }
            try advance()
            arguments.append(Argument(name, try parseValue(const: const)))
        } while token.kind != .parenClose
        try advance()
        return arguments
    }

    private mutating func parseDirectives(const: Bool) throws(GraphQLSyntaxError) -> [Directive] {
        var directives: [Directive] = []
        while token.kind == .at {
            try advance()
            let name = try expectName("expected a directive name after '@'")
            let arguments = token.kind == .parenOpen ? try parseArguments(const: const) : []
            directives.append(Directive(name, arguments: arguments))
        }
        return directives
    }

    mutating func parseValue(const: Bool) throws(GraphQLSyntaxError) -> InputValue {
        let value: InputValue
        switch token.kind {
        case .dollar:
            guard !const else {
                let start = token.start
                try advance()
                let name = token.kind == .name ? " '$\(token.value)'" : ""
                throw error("unexpected variable\(name); default values and directives on variable definitions "
                            + "must be constants", at: start)
            }
            current.variableUses.append(token.start)
            try advance()
            return .variable(try expectName("expected a variable name after '$'"))
        case .int: value = .int(token.value)
        case .float: value = .float(token.value)
        case .string, .blockString: value = .string(token.value)
        case .name:
            switch token.value {
            case "true": value = .boolean(true)
            case "false": value = .boolean(false)
            case "null": value = .null
            default: value = .enumValue(token.value)
            }
        case .bracketOpen: return try parseList(const: const)
        case .braceOpen: return try parseObject(const: const)
        default: throw unexpected("expected a value")
        }
        try advance()
        return value
    }

    private mutating func parseList(const: Bool) throws(GraphQLSyntaxError) -> InputValue {
        let open = token.start
        try enter(at: open)
        try advance()
        var elements: [InputValue] = []
        while token.kind != .bracketClose {
            guard token.kind.canStartValue else {
                throw unexpectedOrUnclosed(open: open, closer: "']'", "expected a value or ']'")
            }
            elements.append(try parseValue(const: const))
        }
        try advance()
        depth -= 1
        return .list(elements)
    }

    private mutating func parseObject(const: Bool) throws(GraphQLSyntaxError) -> InputValue {
        let open = token.start
        try enter(at: open)
        try advance()
        var fields: [InputValue.ObjectField] = []
        while token.kind != .braceClose {
            guard token.kind == .name else {
                throw unexpectedOrUnclosed(open: open, closer: "'}'", "expected an input field name or '}'")
            }
            let name = token.value
            try advance()
            guard token.kind == .colon else { throw unexpected("expected ':' and a value after input field '\(name)'") }
            try advance()
            fields.append(InputValue.ObjectField(name, try parseValue(const: const)))
        }
        try advance()
        depth -= 1
        return .object(fields)
    }

    // MARK: Tokens and errors

    mutating func advance() throws(GraphQLSyntaxError) {
        token = try lexer.next()
    }

    mutating func expectName(_ expected: String) throws(GraphQLSyntaxError) -> String {
        guard token.kind == .name else { throw unexpected(expected) }
        let name = token.value
        try advance()
        return name
    }

    /// Counts one level of nesting, refusing documents deep enough to threaten the stack.
    mutating func enter(at offset: Int) throws(GraphQLSyntaxError) {
        depth += 1
        guard depth <= ParsedDocument.maximumDepth else {
            throw error("the document is nested more than \(ParsedDocument.maximumDepth) levels deep", at: offset)
        }
    }

    func error(_ message: String, at offset: Int) -> GraphQLSyntaxError {
        lexer.error(message, at: offset)
    }

    func unexpected(_ expected: String) -> GraphQLSyntaxError {
        error("unexpected \(token.description); \(expected)", at: token.start)
    }

    /// At the end of the file, names the bracket left open; otherwise reports the unexpected token.
    func unexpectedOrUnclosed(open: Int, closer: String, _ expected: String) -> GraphQLSyntaxError {
        guard token.kind == .endOfFile else { return unexpected(expected) }
        let opener = closer == "')'" ? "'('" : closer == "']'" ? "'['" : "'{'"
        let position = lexer.source.locate(open).position
        return error("unexpected end of file; expected \(closer) to match the \(opener) at \(position)", at: token.start)
    }
}
