/// Which of a model's names a front end offers for a kind of value (shell completion): the fields that can be set,
/// filtered or selected, the association paths that can be followed, the secondary indexes that can be queried.
public enum ModelNameKind: String, Sendable, CaseIterable {
    /// Field values of a create: fields that can be set, and belongs-to associations (which set their foreign key).
    case assign
    /// Field values of an update: as `assign`, without the key fields, which pick the record instead.
    case change
    /// Filter and condition expressions: scalar and enum fields, and belongs-to associations.
    case `where`
    /// Field selections: the model's fields, and one level into its associations (`comments.items.content`).
    case fields
    /// Association paths, two levels deep (`comments.post`).
    case include
    /// The query fields of the model's secondary indexes.
    case index
}

extension ModelSchema {
    /// The names of `kind` that `model` offers, in schema order.
    public func names(_ kind: ModelNameKind, of model: Model) -> [String] {
        switch kind {
        case .assign, .change:
            return model.fields.filter { field in
                guard !field.isReadOnly, kind == .assign || !model.isKeyField(field.name) else { return false }
                guard let relation = relationship(of: field) else { return !field.type.isModel }
                return relation.kind == .belongsTo
            }.map(\.name)
        case .where:
            return model.fields.filter { field in
                switch field.type {
                case .scalar, .enumeration: return true
                case .nonModel, .input: return false
                case .model: return relationship(of: field)?.kind == .belongsTo
                }
            }.map(\.name)
        case .fields:
            var names: [String] = []
            for field in model.fields {
                names.append(field.name)
                guard let relation = relationship(of: field), let related = models[relation.relatedModel] else { continue }
                let prefix = relation.kind == .hasMany ? "\(field.name).items." : "\(field.name)."
                names += related.fields.filter { !$0.type.isModel }.map { prefix + $0.name }
            }
            return names
        case .include:
            var names: [String] = []
            for field in model.relationshipFields {
                names.append(field.name)
                guard let related = relationship(of: field).flatMap({ models[$0.relatedModel] }) else { continue }
                names += related.relationshipFields.map { "\(field.name).\($0.name)" }
            }
            return names
        case .index:
            return model.indexes.compactMap(\.queryField)
        }
    }
}
