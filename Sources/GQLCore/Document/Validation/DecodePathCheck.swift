/// A decode path that asks for a field the operation does not select, found before anything is sent.
public struct DecodePathMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole path.
    public let path: [String]
    /// The index of the first step that is not selected.
    public let failedAt: Int
    /// The response keys (aliases or field names) selected where that step was looked for, in order.
    public let selectedKeys: [String]

    /// An error for `path[failedAt]`, with the keys that were there instead.
    public init(path: [String], failedAt: Int, selectedKeys: [String]) {
        self.path = path
        self.failedAt = failedAt
        self.selectedKeys = selectedKeys
    }

    /// One line, e.g. `the document selects no field 'nme' in 'hero'; did you mean 'name'?`.
    public var description: String {
        let key = path.indices.contains(failedAt) ? path[failedAt] : ""
        let suggestion = Suggestions.didYouMean(key, in: selectedKeys)
        if failedAt == 0 { return "the operation has no root field '\(key)'\(suggestion)" }
        return "the document selects no field '\(key)' in '\(path.prefix(failedAt).joined(separator: "."))'\(suggestion)"
    }
}

extension Document {
    /// Checks that every step of `path` (response keys from `data` down) is selected by `operation`,
    /// looking through fragment spreads and inline fragments. A step below a leaf field is not checked:
    /// a custom scalar may hold an object that the document cannot describe.
    ///
    /// Whether the response really holds the path still depends on the data (a null on the way, a field
    /// selected only on another type), so a path that passes can still be missing from a response.
    ///
    /// ```swift
    /// let document = try Document(parsing: "{ hero { ...f } } fragment f on Character { name }")
    /// try document.checkDecodePath(["hero", "name"], for: document.operation(named: nil))   // passes
    /// try document.checkDecodePath(["hero", "nme"], for: document.operation(named: nil))
    /// // throws: the document selects no field 'nme' in 'hero'; did you mean 'name'?
    /// ```
    public func checkDecodePath(_ path: [String], for operation: OperationDefinition) throws(DecodePathMismatch) {
        var fragmentsByName: [String: FragmentDefinition] = [:]
        for fragment in fragments where fragmentsByName[fragment.name] == nil { fragmentsByName[fragment.name] = fragment }
        var selections = operation.selectionSet
        for (depth, key) in path.enumerated() {
            let fields = Self.fields(in: selections, fragments: fragmentsByName)
            let matching = fields.filter { $0.responseKey == key }
            guard !matching.isEmpty else {
                var seen = Set<String>()
                let keys = fields.map(\.responseKey).filter { seen.insert($0).inserted }
                throw DecodePathMismatch(path: path, failedAt: depth, selectedKeys: keys)
            }
            selections = matching.flatMap(\.selectionSet)
            if selections.isEmpty { return }
        }
    }

    /// The fields of a selection set in source order, with fragments flattened in, each named one once.
    /// Iterative, so that a long chain of fragments cannot exhaust the stack.
    private static func fields(in selections: [Selection], fragments: [String: FragmentDefinition]) -> [Field] {
        var fields: [Field] = []
        var visited = Set<String>()
        // Each entry is a selection set and the index of the next selection to look at.
        var stack: [([Selection], Int)] = [(selections, 0)]
        while let (current, index) = stack.popLast() {
            guard index < current.count else { continue }
            stack.append((current, index + 1))
            switch current[index] {
            case .field(let field):
                fields.append(field)
            case .inlineFragment(let fragment):
                stack.append((fragment.selectionSet, 0))
            case .fragmentSpread(let spread):
                guard visited.insert(spread.name).inserted, let fragment = fragments[spread.name] else { continue }
                stack.append((fragment.selectionSet, 0))
            }
        }
        return fields
    }
}
