/// Prints a ``Document`` in the layout Amplify uses: two-space indentation, one selection per line,
/// `name(arg: value)`, and no trailing newline. Every string value is escaped, so no value can
/// change the structure of the document.
public enum DocumentPrinter {
    /// The document as GraphQL text.
    public static func print(_ document: Document) -> String {
        var out = ""
        for (position, definition) in document.definitions.enumerated() {
            if position > 0 { out += "\n\n" }
            switch definition {
            case .operation(let operation): printOperation(operation, into: &out)
            case .fragment(let fragment): printFragment(fragment, into: &out)
            }
        }
        return out
    }

    /// A value as GraphQL text.
    public static func print(_ value: InputValue) -> String {
        var out = ""
        printValue(value, into: &out)
        return out
    }

    /// A string as a quoted, escaped GraphQL string literal.
    public static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func printOperation(_ operation: OperationDefinition, into out: inout String) {
        let isShorthand = operation.operationType == .query && operation.name == nil
            && operation.variableDefinitions.isEmpty && operation.directives.isEmpty
        if !isShorthand {
            out += operation.operationType.rawValue
            if let name = operation.name { out += " " + name }
            if !operation.variableDefinitions.isEmpty {
                out += "("
                for (position, variable) in operation.variableDefinitions.enumerated() {
                    if position > 0 { out += ", " }
                    out += "$\(variable.name): \(variable.type)"
                    if let value = variable.defaultValue {
                        out += " = "
                        printValue(value, into: &out)
                    }
                    printDirectives(variable.directives, into: &out)
                }
                out += ")"
            }
            printDirectives(operation.directives, into: &out)
            out += " "
        }
        printSelectionSet(operation.selectionSet, level: 0, into: &out)
    }

    private static func printFragment(_ fragment: FragmentDefinition, into out: inout String) {
        out += "fragment \(fragment.name) on \(fragment.typeCondition)"
        printDirectives(fragment.directives, into: &out)
        out += " "
        printSelectionSet(fragment.selectionSet, level: 0, into: &out)
    }

    private static func printSelectionSet(_ selections: [Selection], level: Int, into out: inout String) {
        out += "{"
        let indent = String(repeating: "  ", count: level + 1)
        for selection in selections {
            out += "\n" + indent
            switch selection {
            case .field(let field):
                if let alias = field.alias { out += alias + ": " }
                out += field.name
                printArguments(field.arguments, into: &out)
                printDirectives(field.directives, into: &out)
                if !field.selectionSet.isEmpty {
                    out += " "
                    printSelectionSet(field.selectionSet, level: level + 1, into: &out)
                }
            case .fragmentSpread(let spread):
                out += "..." + spread.name
                printDirectives(spread.directives, into: &out)
            case .inlineFragment(let fragment):
                out += "..."
                if let type = fragment.typeCondition { out += " on " + type }
                printDirectives(fragment.directives, into: &out)
                out += " "
                printSelectionSet(fragment.selectionSet, level: level + 1, into: &out)
            }
        }
        out += "\n" + String(repeating: "  ", count: level) + "}"
    }

    private static func printArguments(_ arguments: [Argument], into out: inout String) {
        guard !arguments.isEmpty else { return }
        out += "("
        for (position, argument) in arguments.enumerated() {
            if position > 0 { out += ", " }
            out += argument.name + ": "
            printValue(argument.value, into: &out)
        }
        out += ")"
    }

    private static func printDirectives(_ directives: [Directive], into out: inout String) {
        for directive in directives {
            out += " @" + directive.name
            printArguments(directive.arguments, into: &out)
        }
    }

    private static func printValue(_ value: InputValue, into out: inout String) {
        switch value {
        case .variable(let name): out += "$" + name
        case .int(let text), .float(let text): out += text
        case .string(let string): out += quoted(string)
        case .boolean(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .enumValue(let name): out += name
        case .list(let elements):
            out += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { out += ", " }
                printValue(element, into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (position, field) in fields.enumerated() {
                if position > 0 { out += ", " }
                out += field.name + ": "
                printValue(field.value, into: &out)
            }
            out += "}"
        }
    }
}

extension Document {
    /// The document as GraphQL text; see ``DocumentPrinter``.
    public func printed() -> String { DocumentPrinter.print(self) }
}
