/// Why no operation could be chosen to send.
public enum OperationSelectionError: Error, Sendable, Equatable, ParameterizedMessage {
    /// The document holds no operation (only fragments).
    case noOperations
    /// Several operations and no name to choose one; the names in document order, nil for anonymous ones.
    case ambiguous(names: [String?])
    /// No operation has the requested name; the names that exist, nil for anonymous ones.
    case unknownOperation(String, available: [String?])

    /// A one-line message for people, each parameter named by `name`.
    public func message(naming name: (Parameter) -> String) -> String {
        switch self {
        case .noOperations:
            return "the document has no operations, only fragments; add a query, mutation or subscription"
        case .ambiguous(let names):
            return "the document has \(names.count) operations (\(Self.list(names))); choose one with \(name(.operationName))"
        case .unknownOperation(let wanted, let available):
            let named = available.compactMap { $0 }
            if let match = Suggestions.closest(to: wanted, in: named) {
                return "unknown operation '\(wanted)'; did you mean '\(match)'?"
            }
            if named.isEmpty {
                return "unknown operation '\(wanted)'; the document's only operation has no name, so leave out \(name(.operationName))"
            }
            return "unknown operation '\(wanted)'; the document has \(Self.list(available))"
        }
    }

    private static func list(_ names: [String?]) -> String {
        names.map { $0 ?? "an anonymous operation" }.joined(separator: ", ")
    }
}

extension Document {
    /// The operation to send: the one named `name`, or the only operation when `name` is nil.
    ///
    /// ```swift
    /// let document = try Document(parsing: "query A { a } query B { b }")
    /// try document.operation(named: "B").name   // "B"
    /// try document.operation(named: nil)         // throws: the document has 2 operations (A, B); choose one with --operation-name
    /// try document.operation(named: "Ax")        // throws: unknown operation 'Ax'; did you mean 'A'?
    /// ```
    public func operation(named name: String?) throws(OperationSelectionError) -> OperationDefinition {
        let operations = self.operations
        guard let name else {
            guard let only = operations.first else { throw .noOperations }
            guard operations.count == 1 else { throw .ambiguous(names: operations.map(\.name)) }
            return only
        }
        guard !operations.isEmpty else { throw .noOperations }
        guard let match = operations.first(where: { $0.name == name }) else {
            throw .unknownOperation(name, available: operations.map(\.name))
        }
        return match
    }

    /// A document holding just `operation`, then the fragments it reaches in their original order:
    /// what a server needs to run that one operation.
    ///
    /// ```swift
    /// let document = try Document(parsing: text)
    /// let toSend = document.subset(for: try document.operation(named: "HeroForEpisode"))
    /// ```
    public func subset(for operation: OperationDefinition) -> Document {
        var fragmentsByName: [String: FragmentDefinition] = [:]
        for fragment in fragments where fragmentsByName[fragment.name] == nil { fragmentsByName[fragment.name] = fragment }
        var needed = Set<String>()
        var pending = DefinitionUsage(.operation(operation)).spreads
        while let name = pending.popLast() {
            guard let fragment = fragmentsByName[name], needed.insert(name).inserted else { continue }
            pending += DefinitionUsage(.fragment(fragment)).spreads
        }
        var kept: [Definition] = [.operation(operation)]
        var added = Set<String>()
        for fragment in fragments where needed.contains(fragment.name) && added.insert(fragment.name).inserted {
            kept.append(.fragment(fragment))
        }
        return Document(definitions: kept)
    }
}

extension ParsedDocument {
    /// The operation to send; see ``Document/operation(named:)``.
    public func operation(named name: String?) throws(OperationSelectionError) -> OperationDefinition {
        try document.operation(named: name)
    }
}
