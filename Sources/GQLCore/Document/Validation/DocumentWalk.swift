/// The fragment spreads and variable uses of one definition, in source order, which is also the
/// order in which the parser recorded their positions.
struct DefinitionUsage {
    var spreads: [String] = []
    var variableUses: [String] = []

    init(_ definition: Definition) {
        switch definition {
        case .operation(let operation):
            visit(operation.directives)
            visit(operation.selectionSet)
        case .fragment(let fragment):
            visit(fragment.directives)
            visit(fragment.selectionSet)
        }
    }

    private mutating func visit(_ selections: [Selection]) {
        for selection in selections {
            switch selection {
            case .field(let field):
                for argument in field.arguments { visit(argument.value) }
                visit(field.directives)
                visit(field.selectionSet)
            case .fragmentSpread(let spread):
                spreads.append(spread.name)
                visit(spread.directives)
            case .inlineFragment(let fragment):
                visit(fragment.directives)
                visit(fragment.selectionSet)
            }
        }
    }

    private mutating func visit(_ directives: [Directive]) {
        for directive in directives {
            for argument in directive.arguments { visit(argument.value) }
        }
    }

    private mutating func visit(_ value: InputValue) {
        switch value {
        case .variable(let name): variableUses.append(name)
        case .list(let elements): for element in elements { visit(element) }
        case .object(let fields): for field in fields { visit(field.value) }
        case .int, .float, .string, .boolean, .null, .enumValue: break
        }
    }
}

extension Definition {
    /// The definition's name, if any.
    var name: String? {
        switch self {
        case .operation(let operation): return operation.name
        case .fragment(let fragment): return fragment.name
        }
    }
}
