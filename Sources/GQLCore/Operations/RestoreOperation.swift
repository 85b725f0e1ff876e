/// What a restore (or a copy) says before anything is sent.
public enum RestoreNote: Sendable, Equatable, CustomStringConvertible {
    /// A model the snapshot did not finish listing: left out.
    case incomplete(model: String)
    /// Where the snapshot does not fit the target's schema.
    case difference(SchemaFit.Difference)
    /// An owner field the transformer adds by itself: the model's create input has no such field.
    case implicitOwner(model: String, field: String)
    /// Read-only fields (the server sets them) that `models`' records have values for: left out of the creates.
    case readOnlyLeftOut(fields: [String], models: [String])

    /// The reason, as one line.
    public var description: String {
        switch self {
        case .incomplete(let model): return "\(model) skipped: the snapshot's listing of it is incomplete"
        case .difference(let difference): return difference.description
        case .implicitOwner(let name, let owner):
            return "note: \(name)'s owner field '\(owner)' is not declared in the model, so its create input has no such field: "
                + "restored records get the caller as owner (none with an API key or IAM); "
                + "declare '\(owner)' in the schema to restore it, or restore those records signed in as their owner"
        case .readOnlyLeftOut(let fields, let models):
            let (verb, pronoun) = fields.count == 1 ? ("is", "it") : ("are", "them")
            return "note: \(fields.joined(separator: ", ")) \(verb) read-only (the server sets \(pronoun)); the snapshot's values are "
                + "left out (\(models.joined(separator: ", ")))"
        }
    }
}

/// A restore of a snapshot directory: its manifest read and the models named checked against it, then (``check``)
/// each model's first record checked against the target's schema and the order planned, all before anything is sent;
/// then (``run``) the records created over one ``JobContext`` by a ``RestoreJob``.
public struct RestoreOperation: Sendable {
    /// The snapshot directory.
    public let directory: String
    /// The snapshot's manifest, read from the directory.
    public let manifest: SnapshotManifest
    /// The target's models.
    public let schema: ModelSchema
    /// The models to restore (after ``check``: the complete ones that fit).
    public private(set) var models: [String]
    /// The order of the creates and the links set afterwards (after ``check``).
    public private(set) var plan: RestorePlan
    /// What the restore does besides creating.
    public var options = RestoreOptions()
    /// Models asked for that the snapshot has incomplete were left out.
    public private(set) var leftOut = false

    /// Reads the snapshot in `directory`; `models` (empty: all of the snapshot's) must be in it.
    public init(directory: String, models given: [String], schema: ModelSchema) throws(SnapshotError) {
        guard let manifest = try SnapshotManifest.read(directory: directory) else { throw .noSnapshot(directory) }
        for name in given where manifest.entry(name) == nil {
            throw .notInSnapshot(name, directory: directory, known: manifest.models.map(\.name))
        }
        self.directory = directory
        self.manifest = manifest
        self.schema = schema
        models = given.isEmpty ? manifest.models.map(\.name) : given
        plan = RestorePlan(schema: schema, models: [])
    }

    /// Leaves out the models the snapshot has incomplete, checks each model's first record against the target's
    /// schema (with ``RestoreOptions/force``, models the target lacks are left out and unknown fields dropped; without
    /// it a difference throws ``SnapshotError/doesNotFit``), says what the server sets, and plans the order. `notes`
    /// hears each finding as it is made.
    public mutating func check(_ notes: (RestoreNote) -> Void) throws(SnapshotError) {
        var complete: [String] = []
        for name in models {
            if manifest.entry(name)?.complete == true {
                complete.append(name)
            } else {
                notes(.incomplete(model: name))
                leftOut = true
            }
        }
        var differences: [SchemaFit.Difference] = []
        var samples: [String: JSONObject] = [:]
        for name in complete {
            guard let entry = manifest.entry(name) else { continue }
            var reader = try RecordFileReader(path: directory + "/" + entry.file)
            samples[name] = try reader.next()?.record
            reader.close()
            differences += SchemaFit.differences(schema: schema, model: name, sample: samples[name])
        }
        differences.forEach { notes(.difference($0)) }
        if !differences.isEmpty {
            if !options.force { throw .doesNotFit }
            let missing = Set(differences.filter { $0.field == nil }.map(\.model))
            complete.removeAll { missing.contains($0) }
        }
        models = complete
        var readOnly: [String] = []
        var withReadOnly: [String] = []
        for name in models {
            guard let model = schema.models[name], let sample = samples[name] else { continue }
            let given = model.fields.filter { $0.isReadOnly && sample[$0.name].map { !$0.isNull } == true }.map(\.name)
            if !given.isEmpty { withReadOnly.append(name) }
            for field in given where !readOnly.contains(field) { readOnly.append(field) }
            for owner in RestoreJob.ownerFields(of: model).implicit { notes(.implicitOwner(model: name, field: owner)) }
        }
        if !readOnly.isEmpty { notes(.readOnlyLeftOut(fields: readOnly, models: withReadOnly)) }
        plan = RestorePlan(schema: schema, models: models)
    }

    /// What a dry run shows: a line per model in the plan's order, with its record count in the snapshot.
    public var planLines: [String] { plan.steps.map { $0.line(count: manifest.entry($0.model)?.count ?? 0) } }

    /// Creates the records over `context` (the API and a client per model, resolved before the first request), reporting each
    /// step; with `rejects`, each model's failed or unsent records are written to `rejects/MODEL.ndjson`.
    public func run(
        in context: JobContext, retry: RetryPolicy, cancellation: CancellationFlag?, rejects: String? = nil,
        events: @escaping @Sendable (RestoreEvent) -> Void
    ) -> RestoreOutcome {
        let clients: [String: GraphQLClient]
        do {
            try context.resolveAPI()
            clients = try context.clients(of: plan.steps.map(\.model))
        } catch {
            return RestoreOutcome(counts: [], stop: .endOfInput, unavailable: error)
        }
        var files: RejectFiles?
        if let rejects {
            do {
                try FileWriter.makeDirectories(rejects, mode: 0o755)
            } catch {
                return RestoreOutcome(counts: [], stop: .endOfInput, fileError: .cannotCreate(path: error.path, reason: error.reason))
            }
            files = RejectFiles(directory: rejects)
        }
        let job = RestoreJob(
            schema: schema, directory: directory, manifest: manifest, plan: plan, options: options, retry: retry,
            cancellation: cancellation)
        let rejected = files
        var outcome = job.run(client: { clients[$0.name] }) { event in
            if case .item(let model, let result, _, false) = event {
                if case .done = result.outcome {} else { rejected?.write(result.item.rejectLine, model: model) }
            }
            events(event)
        }
        files?.close()
        outcome.rejectsFailure = files?.failure
        outcome.modelsLeftOut = leftOut
        return outcome
    }
}

extension RestorePlan.Step {
    /// `Employee 4 (then managerId by update)`: the model, its `count` of records and its deferred links.
    public func line(count: Int) -> String {
        "\(model) \(count)" + (deferred.isEmpty ? "" : " (then \(deferred.joined(separator: ", ")) by update)")
    }
}

/// Why an owner map is not one: it must be a JSON object from old owner value to new.
public enum OwnerMapError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnObject
    case notAString(key: String)
    /// The file (or standard input) cannot be read, or is not JSON.
    case unreadable(InputValueError)

    /// What is wrong with the owner map, as one line.
    public var description: String {
        switch self {
        case .notAnObject: return "expected a JSON object from old owner to new"
        case .notAString(let key): return "the value of '\(key)' is not a string"
        case .unreadable(let error): return error.description
        }
    }
}

extension RestoreOptions {
    /// The owner map a JSON file holds (`-`: `input`), as ``ownerMap(_:)`` reads it.
    public static func ownerMap(from source: InputSource, input: any InputReader) throws(OwnerMapError) -> [String: String] {
        let value: JSONValue
        do throws(InputValueError) {
            value = try source.json(from: input)
        } catch {
            throw .unreadable(error)
        }
        return try ownerMap(value)
    }

    /// The owner map `value` holds: a JSON object of strings, old owner value to new.
    public static func ownerMap(_ value: JSONValue) throws(OwnerMapError) -> [String: String] {
        guard case .object(let object) = value else { throw .notAnObject }
        var map: [String: String] = [:]
        for member in object {
            guard let new = member.value.stringValue else { throw .notAString(key: member.key) }
            map[member.key] = new
        }
        return map
    }
}
