extension ParsedDocument {
    /// Checks what a server would reject beyond syntax: unknown fragments, fragment cycles, unused
    /// fragments, undeclared, unused and duplicate variables (followed through fragments), duplicate
    /// operation and fragment names, and an anonymous operation beside others.
    ///
    /// ```swift
    /// let parsed = try ParsedDocument(parsing: "query { hero { ...heroFeilds } }", fileName: "q.graphql")
    /// parsed.validate().map(\.description)
    /// // ["q.graphql:1:19: unknown fragment 'heroFeilds'; define it with 'fragment heroFeilds on Type { … }'"]
    /// ```
    ///
    /// - Returns: Every problem found, in source order; empty when the document is valid.
    public func validate() -> [GraphQLDocumentError] {
        var validator = DocumentValidator(document: document, locations: locations, source: source)
        return validator.run()
    }
}

extension Document {
    /// The checks of ``ParsedDocument/validate()``, plus checks that only built documents can fail:
    /// invalid names, invalid number text, `true`/`false`/`null` as enum values, empty selection
    /// sets, and variables inside constants. Errors carry no positions.
    ///
    /// ```swift
    /// let document = Document(operations: [.query { Field("hero", arguments: ["id": .variable("id")]) { "name" } }])
    /// document.validate().first?.message   // "variable '$id' is not declared by the anonymous query; …"
    /// ```
    public func validate() -> [GraphQLDocumentError] {
        var validator = DocumentValidator(document: self, locations: nil, source: nil)
        return validator.run()
    }
}

/// Runs the document checks. Positions come from the parser's side table when there is one.
struct DocumentValidator {
    let document: Document
    let locations: [DefinitionLocations]?
    let source: SourceText?

    private var problems: [(kind: GraphQLDocumentError.Kind, message: String, offset: Int?)] = []
    private let usages: [DefinitionUsage]
    /// Each fragment name's first definition, by definition index.
    private var fragmentIndex: [String: Int] = [:]
    /// How many more names suggestions may compare, so that a huge broken document stays fast.
    private var suggestionBudget = 100_000

    init(document: Document, locations: [DefinitionLocations]?, source: SourceText?) {
        self.document = document
        self.locations = locations?.count == document.definitions.count ? locations : nil
        self.source = source
        usages = document.definitions.map(DefinitionUsage.init)
    }

    mutating func run() -> [GraphQLDocumentError] {
        checkNames()
        checkSpreads()
        checkCycles()
        checkOperationsAndVariables()
        for problem in StructureCheck.problems(in: document) { report(problem.kind, problem.message, at: nil) }
        return resolved()
    }

    // MARK: Checks

    private mutating func checkNames() {
        var operationNames: [String: Int] = [:]
        let operationCount = document.operations.count
        for (index, definition) in document.definitions.enumerated() {
            switch definition {
            case .operation(let operation):
                guard let name = operation.name else {
                    if operationCount > 1 {
                        report(.anonymousOperationNotAlone, "an anonymous operation must be the only operation in the "
                               + "document; give it a name, as in '\(operation.operationType) MyOperation { … }'",
                               at: locations?[index].start)
                    }
                    continue
                }
                if let first = operationNames[name] {
                    report(.duplicateOperationName(name), "duplicate operation name '\(name)'\(firstAt(first)); "
                           + "give each operation its own name", at: nameOffset(index))
                } else {
                    operationNames[name] = index
                }
            case .fragment(let fragment):
                if let first = fragmentIndex[fragment.name] {
                    report(.duplicateFragmentName(fragment.name), "duplicate fragment name '\(fragment.name)'"
                           + "\(firstAt(first)); give each fragment its own name", at: nameOffset(index))
                } else {
                    fragmentIndex[fragment.name] = index
                }
            }
        }
    }

    private mutating func checkSpreads() {
        let names = document.fragments.map(\.name)
        for (index, usage) in usages.enumerated() {
            for (ordinal, name) in usage.spreads.enumerated() where fragmentIndex[name] == nil {
                let suggestion = suggest(name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                report(.undefinedFragment(name), "unknown fragment '\(name)'"
                       + (suggestion.isEmpty ? "; define it with 'fragment \(name) on Type { … }'" : suggestion),
                       at: locations?[index].fragmentSpreads[safe: ordinal])
            }
        }
    }

    /// Depth-first search over fragments; a spread back to a fragment on the current path closes a cycle.
    private mutating func checkCycles() {
        enum State { case onPath, done }
        var state: [Int: State] = [:]
        for root in Set(fragmentIndex.values).sorted() where state[root] == nil {
            var stack: [(node: Int, edge: Int)] = [(root, 0)]
            state[root] = .onPath
            while let top = stack.last {
                let spreads = usages[top.node].spreads
                guard top.edge < spreads.count else {
                    state[top.node] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].edge += 1
                guard let target = fragmentIndex[spreads[top.edge]] else { continue }
                switch state[target] {
                case nil:
                    state[target] = .onPath
                    stack.append((target, 0))
                case .onPath:
                    let start = stack.firstIndex(where: { $0.node == target }) ?? 0
                    let cycle = stack[start...].compactMap { document.definitions[$0.node].name }
                        + [spreads[top.edge]]
                    report(.fragmentCycle(cycle), "fragment cycle \(cycle.joined(separator: " -> ")); a fragment "
                           + "cannot spread itself, directly or through other fragments",
                           at: locations?[top.node].fragmentSpreads[safe: top.edge])
                case .done:
                    break
                }
            }
        }
    }

    private mutating func checkOperationsAndVariables() {
        var used = Set<Int>()
        for (index, definition) in document.definitions.enumerated() {
            guard case .operation(let operation) = definition else { continue }
            let reachable = reachableFragments(from: index)
            used.formUnion(reachable)
            let who = operation.name.map { "operation '\($0)'" } ?? "the anonymous \(operation.operationType)"

            var declared = Set<String>()
            for (ordinal, variable) in operation.variableDefinitions.enumerated()
            where !declared.insert(variable.name).inserted {
                report(.duplicateVariable(variable.name, operation: operation.name),
                       "variable '$\(variable.name)' is declared twice by \(who); remove one",
                       at: locations?[index].variableDefinitions[safe: ordinal])
            }
            var usedNames = Set<String>()
            for definitionIndex in [index] + reachable {
                let fragmentName = definitionIndex == index ? nil : document.definitions[definitionIndex].name
                for (ordinal, name) in usages[definitionIndex].variableUses.enumerated() {
                    usedNames.insert(name)
                    guard !declared.contains(name) else { continue }
                    let place = fragmentName.map { " (used in fragment '\($0)')" } ?? ""
                    let fix = suggest(name, in: declared.sorted()).map { "did you mean '$\($0)'?" }
                        ?? "add '$\(name): Type' to its variable definitions"
                    report(.undeclaredVariable(name, operation: operation.name),
                           "variable '$\(name)' is not declared by \(who)\(place); \(fix)",
                           at: locations?[definitionIndex].variableUses[safe: ordinal])
                }
            }
            for (ordinal, variable) in operation.variableDefinitions.enumerated()
            where !usedNames.contains(variable.name) {
                report(.unusedVariable(variable.name, operation: operation.name),
                       "variable '$\(variable.name)' is declared by \(who) but never used; remove it",
                       at: locations?[index].variableDefinitions[safe: ordinal])
            }
        }
        guard !document.operations.isEmpty else { return }
        for (name, index) in fragmentIndex.sorted(by: { $0.value < $1.value }) where !used.contains(index) {
            report(.unusedFragment(name), "fragment '\(name)' is never used; spread it with '...\(name)' or remove it",
                   at: nameOffset(index))
        }
    }

    /// Fragment definitions reachable from a definition, breadth first, each once.
    private func reachableFragments(from start: Int) -> [Int] {
        var seen: Set<Int> = [start]
        var order: [Int] = []
        var queue = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for name in usages[current].spreads {
                guard let target = fragmentIndex[name], seen.insert(target).inserted else { continue }
                order.append(target)
                queue.append(target)
            }
        }
        return order
    }

    /// The closest candidate, while the comparison budget lasts.
    private mutating func suggest(_ name: String, in candidates: [String]) -> String? {
        guard suggestionBudget >= candidates.count else { return nil }
        suggestionBudget -= candidates.count
        return Suggestions.closest(to: name, in: candidates)
    }

    // MARK: Reporting

    private mutating func report(_ kind: GraphQLDocumentError.Kind, _ message: String, at offset: Int?) {
        problems.append((kind, message, offset))
    }

    private func nameOffset(_ index: Int) -> Int? {
        locations.map { $0[index].name ?? $0[index].start }
    }

    /// ` (first defined at 3:1)` when positions are known.
    private func firstAt(_ index: Int) -> String {
        guard let source, let offset = nameOffset(index) else { return "" }
        return " (first defined at \(source.locate(offset).position))"
    }

    /// Errors in source order, with positions resolved in a single pass over the text.
    private func resolved() -> [GraphQLDocumentError] {
        let located = source?.locateAll(problems.compactMap(\.offset)) ?? [:]
        let ordered = problems.enumerated().sorted { a, b in
            switch (a.element.offset, b.element.offset) {
            case let (x?, y?): return x != y ? x < y : a.offset < b.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.offset < b.offset
            }
        }
        return ordered.map { _, problem in
            let place = problem.offset.flatMap { located[$0] }
            return GraphQLDocumentError(
                kind: problem.kind, message: problem.message, position: place?.position,
                fileName: source?.fileName, lineText: place?.lineText)
        }
    }
}

extension Array {
    /// The element at `index`, or nil when it is out of range.
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
