/// The fields a create must carry: non-null fields the server does not fill itself.
///
/// Not required: read-only fields and the timestamps (`createdAt`, `updatedAt`), the default `id` (gqlc
/// generates one), fields with a default value (`@default`), owner fields that owner rules fill from the
/// caller's token, lists of related records and relationships whose key lives on the related records.
/// A non-null belongsTo is satisfied by its foreign keys, and a non-null foreign key by its belongsTo.
struct RequiredFields {
    let schema: ModelSchema
    let model: Model

    /// One missing field: its name and how to give it (`String!`, or the foreign keys of a relationship).
    struct Missing: Sendable, Equatable {
        var field: String
        var type: String
    }

    /// The required fields that `input` lacks (or sets to null), in schema order.
    func missing(in input: JSONObject) -> [Missing] {
        let ownerFields = Set(model.authRules.filter { $0.allow == "owner" }.map { $0.ownerField ?? "owner" })
        func given(_ name: String) -> Bool { input[name].map { !$0.isNull } ?? false }
        var result: [Missing] = []
        for field in model.fields {
            let nonNull = field.isArray ? !field.isArrayNullable : field.isRequired
            guard nonNull, !field.isReadOnly, !field.hasDefault, !ownerFields.contains(field.name),
                  !["createdAt", "updatedAt"].contains(field.name),
                  !(field.name == "id" && model.primaryKey.isDefaultID)
            else { continue }
            if field.isRelationship {
                guard let relation = schema.relationship(of: field), relation.keyHolder == .thisModel,
                      !relation.foreignKeys.isEmpty, !relation.foreignKeys.allSatisfy(given)
                else { continue }
                let keys = relation.foreignKeys.joined(separator: ", ")
                result.append(Missing(field: field.name, type: "\(field.type)!: give \(relation.foreignKeys.count == 1 ? "\(field.name)=ID or " : "")\(keys)"))
                continue
            }
            // A foreign key given through its relationship field is already in `input` under its own name.
            if given(field.name) { continue }
            if model.relationshipFields.contains(where: { relation in
                relation.isRequired && (schema.relationship(of: relation)?.foreignKeys.contains(field.name) ?? false)
            }) { continue }  // reported once, under its relationship
            result.append(Missing(field: field.name, type: field.graphQLType))
        }
        return result
    }

    /// The non-null fields that an update's `input` sets to null, in schema order: the update input accepts the
    /// null, but every later read of the record would fail. A required belongsTo is named for its foreign keys.
    func nulled(in input: JSONObject) -> [Missing] {
        func isNull(_ name: String) -> Bool { input[name]?.isNull ?? false }
        let required = model.fields.filter { !$0.isReadOnly && ($0.isArray ? !$0.isArrayNullable : $0.isRequired) }
        var result: [Missing] = []
        var named: Set<String> = []
        for field in required where field.isRelationship {
            guard let relation = schema.relationship(of: field), relation.keyHolder == .thisModel else { continue }
            let nulled = relation.foreignKeys.filter(isNull)
            guard !nulled.isEmpty else { continue }
            result.append(Missing(field: field.name, type: "\(field.type)!: its key \(nulled.joined(separator: ", "))"))
            named.formUnion(nulled)
        }
        for field in required where !field.isRelationship && isNull(field.name) && !named.contains(field.name) {
            result.append(Missing(field: field.name, type: field.graphQLType))
        }
        return result
    }
}
