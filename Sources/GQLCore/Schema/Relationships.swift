/// Where a relationship's key values are stored.
public enum KeyHolder: Sendable, Equatable {
    /// On the record that declares the field (belongsTo, Gen1 hasOne).
    case thisModel
    /// On the related records (hasMany, Gen2 hasOne).
    case relatedModel
}

/// A relationship field resolved to the foreign-key fields that implement it.
public struct Relationship: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case hasMany, hasOne, belongsTo
    }

    public var kind: Kind
    /// The model the field points to.
    public var relatedModel: String
    public var keyHolder: KeyHolder
    /// The foreign-key fields, in the order of the other side's primary key.
    public var foreignKeys: [String]
}

extension ModelSchema {
    /// Resolves a relationship field of `model` to its foreign keys, following the association forms
    /// Amplify emits: HAS_MANY/HAS_ONE `associatedWith` naming either the child's key fields or the
    /// child's model-typed belongsTo field; BELONGS_TO and Gen1 HAS_ONE `targetNames` on this model.
    public func relationship(of field: ModelField) -> Relationship? {
        guard case .model(let relatedName) = field.type, let association = field.association else { return nil }
        switch association {
        case .belongsTo(let targetNames):
            return Relationship(kind: .belongsTo, relatedModel: relatedName, keyHolder: .thisModel, foreignKeys: targetNames)
        case .hasOne(_, let targetNames) where !targetNames.isEmpty:
            return Relationship(kind: .hasOne, relatedModel: relatedName, keyHolder: .thisModel, foreignKeys: targetNames)
        case .hasOne(let associatedWith, _):
            return Relationship(
                kind: .hasOne, relatedModel: relatedName, keyHolder: .relatedModel,
                foreignKeys: childKeys(associatedWith, in: relatedName))
        case .hasMany(let associatedWith):
            return Relationship(
                kind: .hasMany, relatedModel: relatedName, keyHolder: .relatedModel,
                foreignKeys: childKeys(associatedWith, in: relatedName))
        }
    }

    /// `associatedWith` may name the child's belongsTo field; then its `targetNames` are the keys.
    private func childKeys(_ associatedWith: [String], in relatedName: String) -> [String] {
        guard let first = associatedWith.first,
            let childField = models[relatedName]?.field(named: first),
            case .model = childField.type,
            case .belongsTo(let targetNames)? = childField.association
        else { return associatedWith }
        return targetNames
    }
}
