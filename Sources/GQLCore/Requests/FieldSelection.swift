/// Which fields of a model a get or list asks the server for: Amplify's custom selection sets.
public enum FieldSelection: Sendable, Equatable {
    /// The full selection (``SelectionBuilder``), with the includes.
    case all
    /// The key fields only (and `__typename`): the cheapest page, for counting.
    case keysOnly
    /// These dot paths (`title`, `metadata.wordCount`, `comments.items.content`); key fields and
    /// `__typename` are always kept, and so is each connection's `nextToken`. `items.` may be left out
    /// (`comments.content`). A path into an association needs that association included.
    case paths([String])

    /// The paths that lie below the association `field`, relative to its records (`comments.items.content`
    /// and `comments.content` give `content`); `.all` when the field itself is named whole.
    func below(_ field: String) -> FieldSelection {
        guard case .paths(let paths) = self else { return self }
        var inner: [String] = []
        for path in paths {
            var segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard segments.first == field else { continue }
            segments.removeFirst()
            if segments.first == "items" { segments.removeFirst() }
            if segments.isEmpty { return .all }
            inner.append(segments.joined(separator: "."))
        }
        return .paths(inner)
    }
}

extension SelectionBuilder {
    /// The selection of `model` narrowed to `fields`: the full selection with `include`, pruned in its own order.
    func modelSelections(_ model: Model, include: IncludeTree, fields: FieldSelection) throws(RequestBuildError) -> [Selection] {
        switch fields {
        case .all: return try modelSelections(model, include: include)
        case .keysOnly: return keySelections(model)
        case .paths:
            let full = try modelSelections(model, include: include)
            return try prune(full, level: .model(model, trail: []), paths: try split(fields))
        }
    }

    /// The `--fields` paths split into segments; an empty segment is an error.
    private func split(_ fields: FieldSelection) throws(RequestBuildError) -> [Path] {
        guard case .paths(let paths) = fields else { return [] }
        var split: [Path] = []
        for path in paths {
            let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !segments.contains(where: \.isEmpty) else {
                throw RequestBuildError.syntax("empty path segment; write paths like title or comments.items.content")
                    .about(.fields, path)
            }
            split.append(Path(rest: segments, full: path))
        }
        return split
    }

    /// The selection of the embedded type `typeName` (a custom operation's result), narrowed to `fields`.
    func embeddedSelections(_ typeName: String, fields: FieldSelection) throws(RequestBuildError) -> [Selection] {
        let full = embeddedSelections(typeName, visiting: []) ?? []
        guard case .paths = fields else { return full }
        return try prune(full, level: .embedded(typeName), paths: try split(fields))
    }

    /// `items { … } nextToken` for a list of `model`, narrowed to `fields`.
    func connectionSelections(_ model: Model, include: IncludeTree, fields: FieldSelection) throws(RequestBuildError) -> [Selection] {
        [.field(Field("items", selections: try modelSelections(model, include: include, fields: fields))), .field(Field("nextToken"))]
    }

    /// What is left of a `--fields` path below the current level, and the path as given (for messages).
    private struct Path {
        var rest: [String]
        let full: String
    }

    /// Where in the selection tree a pruning step is.
    private enum Level {
        /// A model's object; `trail` is the relationship path from the root (the `--include` path that reaches it).
        case model(Model, trail: [String])
        /// `{ items nextToken }` of a list of the model.
        case connection(Model, trail: [String])
        /// An embedded (nonModel) object.
        case embedded(String)

        var typeName: String {
            switch self {
            case .model(let model, _), .connection(let model, _): model.name
            case .embedded(let name): name
            }
        }

        /// Fields kept whatever is asked: a model's key and `__typename`, a connection's `nextToken`.
        func isKept(_ name: String) -> Bool {
            switch self {
            case .model(let model, _): model.isKeyField(name) || name == "__typename" || model.isVersionField(name)
            case .connection: name == "nextToken"
            case .embedded: name == "__typename"
            }
        }
    }

    private func prune(_ selections: [Selection], level: Level, paths: [Path]) throws(RequestBuildError) -> [Selection] {
        let fields: [Field] = selections.compactMap { if case .field(let field) = $0 { field } else { nil } }
        let names = fields.map(\.name)
        var whole: Set<String> = []
        var deeper: [String: [Path]] = [:]
        for path in paths {
            guard var first = path.rest.first else { continue }
            var rest = Array(path.rest.dropFirst())
            if !names.contains(first), case .connection = level {
                // `comments.content` means `comments.items.content`.
                rest = path.rest
                first = "items"
            }
            guard let field = fields.first(where: { $0.name == first }) else {
                throw missing(first, level: level, names: names).about(.fields, path.full)
            }
            if rest.isEmpty {
                whole.insert(first)
            } else if field.selectionSet.isEmpty {
                throw RequestBuildError.syntax("'\(first)' on \(level.typeName) is a scalar field; it has no fields to select")
                    .about(.fields, path.full)
            } else {
                deeper[first, default: []].append(Path(rest: rest, full: path.full))
            }
        }
        var result: [Selection] = []
        for field in fields {
            if whole.contains(field.name) || (level.isKept(field.name) && deeper[field.name] == nil) {
                result.append(.field(field))
            } else if let inner = deeper[field.name] {
                var narrowed = field
                narrowed.selectionSet = try prune(field.selectionSet, level: child(field.name, of: level), paths: inner)
                result.append(.field(narrowed))
            }
        }
        return result
    }

    /// The level of `name`'s selection, one below `level`.
    private func child(_ name: String, of level: Level) -> Level {
        switch level {
        case .connection(let model, let trail):
            return .model(model, trail: trail)
        case .model(let model, let trail):
            guard let field = model.field(named: name) else { return .embedded("") }
            if let relation = schema.relationship(of: field), let related = schema.models[relation.relatedModel] {
                return relation.kind == .hasMany
                    ? .connection(related, trail: trail + [name]) : .model(related, trail: trail + [name])
            }
            if case .nonModel(let type) = field.type { return .embedded(type) }
            return .embedded("")
        case .embedded(let type):
            guard case .nonModel(let inner)? = schema.nonModels[type]?.fields.first(where: { $0.name == name })?.type else {
                return .embedded("")
            }
            return .embedded(inner)
        }
    }

    /// Why `name` cannot be selected here: an association (or an association's field) that is not included,
    /// or an unknown field, with the closest name.
    private func missing(_ name: String, level: Level, names: [String]) -> RequestBuildError {
        if case .model(let model, let trail) = level, let field = model.field(named: name) {
            let path = field.isRelationship ? trail + [name] : trail
            if !path.isEmpty { return .notIncluded(field: name, model: model.name, include: path.joined(separator: ".")) }
        }
        let candidates = names.filter { $0 != "__typename" }
        return .unknownField(name, type: level.typeName, suggestion: Suggestions.closest(to: name, in: candidates))
    }
}
