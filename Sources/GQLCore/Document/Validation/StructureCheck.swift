/// Checks that only a built document can fail, because the parser never produces them: every
/// name, number and enum value must print as the token it claims to be, and selection sets that
/// the grammar requires must not be empty.
enum StructureCheck {
    typealias Problem = (kind: GraphQLDocumentError.Kind, message: String)

    static func problems(in document: Document) -> [Problem] {
        var check = Walker()
        for definition in document.definitions {
            switch definition {
            case .operation(let operation):
                let who = operation.name.map { "operation '\($0)'" } ?? "the anonymous \(operation.operationType)"
                if let name = operation.name { check.name(name, "operation name") }
                for variable in operation.variableDefinitions {
                    check.name(variable.name, "variable name")
                    check.type(variable.type)
                    if let value = variable.defaultValue { check.value(value, constant: true) }
                    check.directives(variable.directives, constant: true)
                }
                check.directives(operation.directives, constant: false)
                check.selectionSet(operation.selectionSet, required: who)
            case .fragment(let fragment):
                check.fragmentName(fragment.name)
                check.name(fragment.typeCondition, "type condition")
                check.directives(fragment.directives, constant: false)
                check.selectionSet(fragment.selectionSet, required: "fragment '\(fragment.name)'")
            }
        }
        return check.problems
    }

    private struct Walker {
        var problems: [Problem] = []

        mutating func name(_ name: String, _ role: String) {
            guard !GraphQLName.isValid(name) else { return }
            problems.append((.invalidName(name, role: role), "invalid \(role) \(DocumentPrinter.quoted(name)); a name "
                             + "has only letters, digits and '_', and does not start with a digit"))
        }

        mutating func fragmentName(_ fragmentName: String) {
            if fragmentName == "on" {
                problems.append((.invalidName(fragmentName, role: "fragment name"), "a fragment cannot be named 'on'"))
            } else {
                name(fragmentName, "fragment name")
            }
        }

        mutating func type(_ type: TypeReference) {
            name(type.namedType, "type name")
        }

        mutating func directives(_ directives: [Directive], constant: Bool) {
            for directive in directives {
                name(directive.name, "directive name")
                arguments(directive.arguments, constant: constant)
            }
        }

        mutating func arguments(_ arguments: [Argument], constant: Bool) {
            for argument in arguments {
                name(argument.name, "argument name")
                value(argument.value, constant: constant)
            }
        }

        mutating func value(_ value: InputValue, constant: Bool) {
            switch value {
            case .variable(let variable):
                name(variable, "variable name")
                if constant {
                    problems.append((.variableInConstant(variable), "variable '$\(variable)' cannot be used in a default "
                                     + "value or in a directive of a variable definition; use a constant"))
                }
            case .int(let text):
                if !Self.lexes(text, as: [.int]) {
                    problems.append((.invalidNumber(text), "invalid Int \(DocumentPrinter.quoted(text)); expected an "
                                     + "integer literal such as 42 or -7"))
                }
            case .float(let text):
                if !Self.lexes(text, as: [.float, .int]) {
                    problems.append((.invalidNumber(text), "invalid Float \(DocumentPrinter.quoted(text)); expected a "
                                     + "number literal such as 1.5, -0.25 or 6.02e23"))
                }
            case .enumValue(let enumValue):
                if ["true", "false", "null"].contains(enumValue) {
                    problems.append((.invalidEnumValue(enumValue), "'\(enumValue)' cannot be an enum value; use "
                                     + (enumValue == "null" ? ".null" : ".boolean(\(enumValue))") + " instead"))
                } else {
                    name(enumValue, "enum value")
                }
            case .list(let elements):
                for element in elements { self.value(element, constant: constant) }
            case .object(let fields):
                for field in fields {
                    name(field.name, "input field name")
                    self.value(field.value, constant: constant)
                }
            case .string, .boolean, .null:
                break
            }
        }

        mutating func selectionSet(_ selections: [Selection], required owner: String?) {
            if let owner, selections.isEmpty {
                problems.append((.emptySelectionSet(owner), "\(owner) has an empty selection set; select at least one field"))
            }
            for selection in selections {
                switch selection {
                case .field(let field):
                    if let alias = field.alias { name(alias, "alias") }
                    name(field.name, "field name")
                    arguments(field.arguments, constant: false)
                    directives(field.directives, constant: false)
                    selectionSet(field.selectionSet, required: nil)
                case .fragmentSpread(let spread):
                    fragmentName(spread.name)
                    directives(spread.directives, constant: false)
                case .inlineFragment(let fragment):
                    if let type = fragment.typeCondition { name(type, "type condition") }
                    directives(fragment.directives, constant: false)
                    selectionSet(fragment.selectionSet, required: "an inline fragment")
                }
            }
        }

        /// True when `text` lexes as exactly one token of one of `kinds`.
        static func lexes(_ text: String, as kinds: [TokenKind]) -> Bool {
            var lexer = Lexer(SourceText(text, fileName: nil))
            guard let token = try? lexer.next(), kinds.contains(token.kind), token.start == 0,
                token.end == text.utf8.count
            else { return false }
            return true
        }
    }
}
