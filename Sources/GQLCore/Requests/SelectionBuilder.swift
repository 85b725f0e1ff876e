/// Builds the selection sets of model requests, in the order Amplify Swift's builders use.
///
/// A model object selects, in order:
/// 1. its primary-key fields, in key order;
/// 2. its other scalar, enum and embedded fields, alphabetically; an embedded (nonModel) field is
///    expanded to all of its fields, alphabetically, followed by `__typename` as Amplify Swift does;
/// 3. its belongsTo and hasOne fields, alphabetically: the related model's key fields and `__typename`,
///    or, when included, the related model's full selection;
/// 4. its included hasMany fields, alphabetically, as `field { items { … } nextToken }`;
/// 5. `__typename`.
///
/// Connections (`items { … } nextToken`) carry no `__typename` of their own.
struct SelectionBuilder {
    let schema: ModelSchema

    /// The full selection of a `model` object with `include` expanded.
    func modelSelections(_ model: Model, include: IncludeTree) throws(RequestBuildError) -> [Selection] {
        var selections: [Selection] = model.keyFields.map { .field(Field($0.name)) }
        let others = model.fields
            .filter { !$0.isRelationship && !model.isKeyField($0.name) }
            .sorted { $0.name < $1.name }
        for field in others {
            if case .nonModel(let typeName) = field.type {
                guard let embedded = embeddedSelections(typeName, visiting: []) else { continue }
                selections.append(.field(Field(field.name, selections: embedded)))
            } else {
                selections.append(.field(Field(field.name)))
            }
        }
        var lists: [Selection] = []
        for field in model.relationshipFields.sorted(by: { $0.name < $1.name }) {
            guard let relation = schema.relationship(of: field) else { continue }
            guard let related = schema.models[relation.relatedModel] else {
                throw .unknownModel(relation.relatedModel, suggestion: nil)
            }
            let branch = include.branch(field.name)
            switch relation.kind {
            case .belongsTo, .hasOne:
                let inner = try branch.map { b throws(RequestBuildError) in try modelSelections(related, include: b.subtree) }
                    ?? keySelections(related)
                selections.append(.field(Field(field.name, selections: inner)))
            case .hasMany:
                guard let branch else { continue }
                lists.append(.field(Field(field.name, selections: try connectionSelections(related, include: branch.subtree))))
            }
        }
        return selections + lists + [.field(Field("__typename"))]
    }

    /// `items { … } nextToken` for a list of `model`.
    func connectionSelections(_ model: Model, include: IncludeTree) throws(RequestBuildError) -> [Selection] {
        [.field(Field("items", selections: try modelSelections(model, include: include))), .field(Field("nextToken"))]
    }

    /// A related object that is not included: its key fields and `__typename`.
    func keySelections(_ model: Model) -> [Selection] {
        // With conflict detection, the version and deleted mark too: writes send the one, reads hide by the other.
        let versions = model.conflictDetection == nil ? [] : [ConflictDetection.versionField, ConflictDetection.deletedField]
        return model.keyFields.map { .field(Field($0.name)) } + versions.map { .field(Field($0)) } + [.field(Field("__typename"))]
    }

    /// All fields of an embedded type, alphabetically, then `__typename`. A type that contains itself
    /// cannot be selected to the end, so the recursive field is left out; nil for an unknown type.
    func embeddedSelections(_ typeName: String, visiting: Set<String>) -> [Selection]? {
        guard let type = schema.nonModels[typeName], !visiting.contains(typeName) else { return nil }
        var selections: [Selection] = []
        for field in type.fields.sorted(by: { $0.name < $1.name }) {
            if case .nonModel(let inner) = field.type {
                guard let nested = embeddedSelections(inner, visiting: visiting.union([typeName])) else { continue }
                selections.append(.field(Field(field.name, selections: nested)))
            } else if !field.isRelationship {
                selections.append(.field(Field(field.name)))
            }
        }
        return selections + [.field(Field("__typename"))]
    }
}
