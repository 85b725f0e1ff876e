/// A snapshot of a whole app's data: the models checked against the schema and the directory (a new snapshot's
/// directory made, its manifest started; a resumed one's manifest read) before anything is sent, then each model
/// listed into it by a ``SnapshotJob`` over one ``JobContext``.
public struct SnapshotOperation: Sendable {
    /// The snapshot directory.
    public let directory: String
    /// The models that will be listed, in order (what a dry run shows).
    public let models: [String]
    /// The manifest the job starts from.
    public let manifest: SnapshotManifest

    /// Checks `models` (empty: every model, or a resumed snapshot's) against `schema`; a new snapshot (not `resume`)
    /// needs a directory without a manifest, which is made, and its manifest records `endpoint` (user info masked),
    /// the schema file's digest and `now`.
    public init(
        directory: String, models given: [String], resume: Bool, schema: ModelSchema, schemaSHA256: @autoclosure () -> String?,
        endpoint: String?, now: Timestamp
    ) throws(SnapshotError) {
        for name in given where schema.models[name] == nil { throw .unknownModel(name, known: schema.modelNames) }
        let existing = try SnapshotManifest.read(directory: directory)
        if resume {
            guard let existing else { throw .nothingToResume(directory) }
            manifest = existing
        } else {
            if existing != nil { throw .notEmpty(directory) }
            do {
                try FileWriter.makeDirectories(directory, mode: 0o755)
            } catch {
                throw .cannotCreate(path: error.path, reason: error.reason)
            }
            manifest = SnapshotManifest(
                models: [], schemaSHA256: schemaSHA256(), endpoint: endpoint.map(EndpointURL.maskingUserInfo), takenAt: now.iso8601UTC)
        }
        self.directory = directory
        models = given.isEmpty && resume ? manifest.models.map(\.name).filter { schema.models[$0] != nil } : (given.isEmpty ? schema.modelNames : given)
    }

    /// Lists the models over `context`, reporting each step; a model whose client cannot be made is skipped, with
    /// `reason(error)` in the manifest. The API itself is resolved first: when it cannot be, nothing is written
    /// (``SnapshotOutcome/Stop/unavailable(_:)``).
    public func run(
        in context: JobContext, reason: (ContextError) -> String, events: (SnapshotEvent) -> Void
    ) -> SnapshotOutcome {
        do throws(ContextError) {
            try context.resolveAPI()
        } catch {
            return SnapshotOutcome(manifest: manifest, stop: .unavailable(error))
        }
        return SnapshotJob(schema: context.schema, directory: directory, models: models, manifest: manifest).run(
            client: { model in
                do throws(ContextError) {
                    return .success(try context.client(for: model))
                } catch {
                    return .failure(SnapshotSkip(reason(error)))
                }
            },
            events: events)
    }
}
