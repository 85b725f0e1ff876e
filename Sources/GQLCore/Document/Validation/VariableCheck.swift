/// A mismatch between an operation's variable definitions and the variables given to send with it.
public enum VariableProblem: Sendable, Equatable, CustomStringConvertible {
    /// A non-null variable without a default that was not given, or was given as null.
    case missing(name: String, type: TypeReference, operation: String?)
    /// A given variable the operation does not declare; `suggestion` is the closest declared name.
    case undeclared(name: String, suggestion: String?, operation: String?)

    /// Whether a required variable has no value (the other problem, an undeclared one, servers ignore).
    public var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .missing(let name, let type, let operation):
            return "variable '$\(name)' of type \(type) is required by \(Self.who(operation)) but has no value"
        case .undeclared(let name, let suggestion, let operation):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "variable '\(name)' is not declared by \(Self.who(operation))\(hint)"
        }
    }

    private static func who(_ operation: String?) -> String {
        operation.map { "operation '\($0)'" } ?? "the operation"
    }
}

extension OperationDefinition {
    /// Compares the given variables with the operation's definitions: required ones (non-null, no
    /// default) that are absent or null, then given ones the operation does not declare.
    ///
    /// ```swift
    /// let operation = try Document(parsing: "query Q($id: ID!) { human(id: $id) { name } }").operation(named: nil)
    /// operation.variableProblems(in: ["di": "1000"]).map(\.description)
    /// // ["variable '$id' of type ID! is required by operation 'Q' but has no value",
    /// //  "variable 'di' is not declared by operation 'Q'; did you mean 'id'?"]
    /// ```
    public func variableProblems(in variables: JSONObject) -> [VariableProblem] {
        var problems: [VariableProblem] = []
        for definition in variableDefinitions {
            guard case .nonNull = definition.type, definition.defaultValue == nil else { continue }
            if variables[definition.name] == nil || variables[definition.name] == .null {
                problems.append(.missing(name: definition.name, type: definition.type, operation: name))
            }
        }
        let declared = variableDefinitions.map(\.name)
        for key in variables.keys where !declared.contains(key) {
            problems.append(.undeclared(
                name: key, suggestion: Suggestions.closest(to: key, in: declared), operation: name))
        }
        return problems
    }

    /// The response keys of the fields selected directly at the root, in order: with exactly one,
    /// the result of interest sits at `data.<key>`.
    ///
    /// ```swift
    /// try Document(parsing: "{ luke: human(id: \"1000\") { name } }").operation(named: nil).rootResponseKeys   // ["luke"]
    /// ```
    public var rootResponseKeys: [String] {
        selectionSet.compactMap { if case .field(let field) = $0 { return field.responseKey } else { return nil } }
    }
}
