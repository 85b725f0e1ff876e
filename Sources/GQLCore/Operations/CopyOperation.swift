/// A copy of a whole app's data from one API to another: a restore whose records come from the source's listings
/// instead of files (each model listed while its records are created, a few pages ahead, nothing on disk). The
/// models are checked against both schemas before anything is sent.
public struct CopyOperation: Sendable {
    /// The models to copy (those the source can list), and the target's order for them.
    public let models: [String]
    /// The order of the creates and the links set afterwards.
    public let plan: RestorePlan
    /// What the copy does besides creating: skipping existing records, forcing, the owner map, the workers.
    public var options = RestoreOptions()
    /// The source's client for each model, once ``resolveSource(_:)`` made them.
    private var sourceClients: [String: GraphQLClient] = [:]

    /// Checks `models` (empty: every model of the source) against the source's schema, then the source's stored fields
    /// against the target's: each difference is told to `notes`, and any throws ``SnapshotError/doesNotFit``.
    public init(
        models given: [String], source: ModelSchema, target: ModelSchema, notes: (SchemaFit.Difference) -> Void
    ) throws(SnapshotError) {
        for name in given where source.models[name] == nil { throw .unknownModel(name, known: source.modelNames) }
        models = (given.isEmpty ? source.modelNames : given).filter { source.models[$0]?.operations.list != nil }
        var fits = true
        for name in models {
            guard let model = source.models[name] else { continue }
            // The source's stored fields stand for its records.
            var sample = JSONObject()
            for field in model.fields where !field.isRelationship && !field.isReadOnly { sample[field.name] = .string("") }
            for difference in SchemaFit.differences(schema: target, model: name, sample: sample) {
                notes(difference)
                fits = false
            }
        }
        if !fits { throw .doesNotFit }
        plan = RestorePlan(schema: target, models: models)
    }

    /// Makes the source's client for each model (before anything is listed).
    public mutating func resolveSource(_ source: JobContext) throws(ContextError) {
        sourceClients = try source.clients(of: models)
    }

    /// A dry run: a line per model in the plan's order with its record count in the source (listing keys only), and
    /// the model whose counting failed, with how, when one did (the lines before it are the models counted).
    public func countSource(_ source: JobContext) -> (lines: [String], failed: (model: String, kind: ResultKind)?) {
        var lines: [String] = []
        for step in plan.steps {
            guard let client = sourceClients[step.model], let pager = try? source.listing(step.model, client: client, fields: .keysOnly)
            else { continue }
            let result = pager.run { _ in }
            guard case .endOfList = result.stop else { return (lines, (step.model, result.kind)) }
            lines.append(step.line(count: result.delivered))
        }
        return (lines, nil)
    }

    /// Creates the source's records in `target` (a client per model, resolved before the first request), reporting
    /// each step.
    public func run(
        from source: JobContext, into target: JobContext, retry: RetryPolicy, cancellation: CancellationFlag?,
        events: @escaping @Sendable (RestoreEvent) -> Void
    ) -> RestoreOutcome {
        let clients: [String: GraphQLClient]
        do {
            clients = try target.clients(of: plan.steps.map(\.model))
        } catch {
            return RestoreOutcome(counts: [], stop: .endOfInput, unavailable: error)
        }
        let manifest = SnapshotManifest(
            models: models.map { SnapshotManifest.Entry(name: $0, complete: true) }, schemaSHA256: nil, endpoint: nil, takenAt: "")
        var job = RestoreJob(
            schema: target.schema, directory: "", manifest: manifest, plan: plan, options: options, retry: retry,
            cancellation: cancellation)
        let listingClients = sourceClients
        job.openRecords = { model, _ throws(SnapshotError) in
            guard let client = listingClients[model] else { throw SnapshotError.unknownModel(model, known: []) }
            do {
                return ListingStream(pager: try source.listing(model, client: client))
            } catch {
                throw SnapshotError.unreadable("\(model): \(error)")
            }
        }
        return job.run(client: { clients[$0.name] }, events: events)
    }
}
