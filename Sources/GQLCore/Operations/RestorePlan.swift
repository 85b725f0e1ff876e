/// The order a restore creates models in, and the links it sets in a second pass.
///
/// A model whose records hold foreign keys to another model's records (a belongs-to, or a Gen 1 has-one that keeps
/// its keys) comes after that model, so belongs-to targets come first and join models of many-to-many come last.
/// A link that would close a cycle (a model pointing to itself, or two models pointing to each other) is deferred:
/// the records are created without those foreign keys, and once every model is created, the records that had them
/// are updated to set them. A foreign key that is part of the primary key or required cannot be left out; it is sent
/// with the create (AppSync does not check that the target exists).
public struct RestorePlan: Sendable, Equatable {
    /// One model's step.
    public struct Step: Sendable, Equatable {
        public var model: String
        /// Foreign-key fields set by an update after every model is created.
        public var deferred: [String]
    }

    public var steps: [Step]

    /// The plan for `models` (the others are ignored as link targets: they are not being restored).
    public init(schema: ModelSchema, models: [String]) {
        let included = Set(models)
        // For each model: the models it points to, with the foreign keys of each link.
        var links: [String: [(target: String, keys: [String])]] = [:]
        for name in models {
            guard let model = schema.models[name] else { continue }
            for field in model.relationshipFields {
                guard let relation = schema.relationship(of: field), relation.keyHolder == .thisModel,
                    included.contains(relation.relatedModel), !relation.foreignKeys.isEmpty
                else { continue }
                links[name, default: []].append((relation.relatedModel, relation.foreignKeys))
            }
        }
        func deferrable(_ keys: [String], of name: String) -> [String] {
            guard let model = schema.models[name] else { return [] }
            return keys.filter { key in
                !model.primaryKey.fields.contains(key) && model.field(named: key)?.isRequired != true
            }
        }
        var steps: [Step] = []
        var placed = Set<String>()
        var remaining = models.sorted()
        while !remaining.isEmpty {
            let unmet = { (name: String) -> [(target: String, keys: [String])] in
                (links[name] ?? []).filter { $0.target != name && !placed.contains($0.target) }
            }
            // Ready: every target created; else (a cycle) the model with the fewest unmet links, its links deferred.
            let ready = remaining.first { unmet($0).isEmpty }
                ?? remaining.min { (unmet($0).count, $0) < (unmet($1).count, $1) }
            guard let name = ready else { break }
            let selfLinks = (links[name] ?? []).filter { $0.target == name }
            var deferred: [String] = []
            for link in selfLinks + unmet(name) {
                for key in deferrable(link.keys, of: name) where !deferred.contains(key) { deferred.append(key) }
            }
            steps.append(Step(model: name, deferred: deferred))
            placed.insert(name)
            remaining.removeAll { $0 == name }
        }
        self.steps = steps
    }
}

/// How a snapshot's models fit the target's schema, checked before anything is sent.
public enum SchemaFit {
    /// One difference: a model the target lacks, a field the target lacks, or a field the target requires that the
    /// snapshot's records do not have.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public var model: String
        public var field: String?
        public var problem: String
        public var description: String { field.map { "\(model).\($0): \(problem)" } ?? "\(model): \(problem)" }
    }

    /// The differences, judged from each model's first record (`sample`; nil when the file is empty).
    public static func differences(schema: ModelSchema, model name: String, sample: JSONObject?) -> [Difference] {
        guard let model = schema.models[name] else {
            return [Difference(model: name, field: nil, problem: "the target has no such model")]
        }
        if model.operations.create == nil {
            return [Difference(model: name, field: nil, problem: "the target's create operation is disabled")]
        }
        guard let sample else { return [] }
        var found: [Difference] = []
        for member in sample where member.key != "__typename" && model.field(named: member.key) == nil {
            found.append(Difference(model: name, field: member.key, problem: "the target's model has no such field"))
        }
        for missing in RequiredFields(schema: schema, model: model).missing(in: sample) {
            found.append(Difference(model: name, field: missing.field, problem: "the target requires it (\(missing.type)); the snapshot has none"))
        }
        return found
    }

    /// The record without the members the target's model lacks (`--force` restores what fits).
    public static func fitted(_ record: JSONObject, to model: Model) -> JSONObject {
        var kept = JSONObject()
        for member in record where member.key == "__typename" || model.field(named: member.key) != nil {
            kept[member.key] = member.value
        }
        return kept
    }
}
