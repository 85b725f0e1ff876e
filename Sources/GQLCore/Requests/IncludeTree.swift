/// The relationships to select in full, from `--include` dot paths (`comments`, `post.comments`, `books.author`).
///
/// A tree rather than a list of paths: `comments` and `comments.post` share the `comments` branch.
public struct IncludeTree: Sendable, Equatable {
    /// One included relationship field and what is included below it.
    public struct Branch: Sendable, Equatable {
        public var field: String
        public var kind: Relationship.Kind
        public var relatedModel: String
        public var subtree: IncludeTree

        public init(field: String, kind: Relationship.Kind, relatedModel: String, subtree: IncludeTree = IncludeTree()) {
            self.field = field
            self.kind = kind
            self.relatedModel = relatedModel
            self.subtree = subtree
        }
    }

    /// Branches sorted by field name.
    public private(set) var branches: [Branch]

    public init(branches: [Branch] = []) { self.branches = branches.sorted { $0.field < $1.field } }

    public var isEmpty: Bool { branches.isEmpty }

    /// The branch for `field`, if it is included.
    public func branch(_ field: String) -> Branch? { branches.first { $0.field == field } }

    /// Resolves dot paths against `model`. Each segment must be a relationship field of the model reached so far.
    public static func resolve(_ paths: [String], from model: Model, in schema: ModelSchema) throws(RequestBuildError) -> IncludeTree {
        var tree = IncludeTree()
        for path in paths {
            do {
                try tree.insert(path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...],
                                from: model, in: schema)
            } catch {
                throw error.about(.include, path)
            }
        }
        return tree
    }

    private mutating func insert(_ segments: ArraySlice<String>, from model: Model, in schema: ModelSchema) throws(RequestBuildError) {
        guard let name = segments.first else { return }
        guard !name.isEmpty else { throw .syntax("empty path segment; write paths like comments or post.comments") }
        let associations = model.relationshipFields.map(\.name)
        guard let field = model.field(named: name) else {
            throw .unknownAssociation(name, model: model.name, suggestion: Suggestions.closest(to: name, in: associations),
                                      associations: associations)
        }
        guard let relation = schema.relationship(of: field) else {
            throw .notARelationship(field: name, model: model.name, associations: associations)
        }
        guard let related = schema.models[relation.relatedModel] else {
            throw .unknownModel(relation.relatedModel, suggestion: nil)
        }
        var branch = self.branch(name) ?? Branch(field: name, kind: relation.kind, relatedModel: related.name)
        try branch.subtree.insert(segments.dropFirst(), from: related, in: schema)
        branches.removeAll { $0.field == name }
        branches.append(branch)
        branches.sort { $0.field < $1.field }
    }
}
