/// What a snapshot reports as it goes; the executable renders it.
public enum SnapshotEvent: Sendable {
    /// A model's listing starts.
    case modelStarted(String)
    /// A page of `items` records was written; `total` so far for the model.
    case page(model: String, items: Int, total: Int)
    /// A model was listed to its end.
    case modelFinished(String, count: Int)
    /// A model complete in the snapshot being resumed: not listed again.
    case alreadyComplete(String, count: Int)
    /// A model that cannot be listed, and why.
    case modelSkipped(String, reason: String)
}

extension SnapshotEvent {
    /// The event's line in a snapshot's report (`Post: 5 records`), nil for none; a skipped model's is a diagnostic.
    public var line: (text: String, isDiagnostic: Bool)? {
        switch self {
        case .modelStarted, .page: nil
        case .modelFinished(let name, let count): ("\(name): \(count) record\(count == 1 ? "" : "s")", false)
        case .alreadyComplete(let name, let count): ("\(name): \(count) records (complete already)", false)
        case .modelSkipped(let name, let reason): ("\(name) skipped: \(reason)", true)
        }
    }
}

/// How a snapshot ended.
public struct SnapshotOutcome: Sendable {
    /// The manifest as last written.
    public var manifest: SnapshotManifest
    /// Why it stopped early: interrupted, or a request failed; nil when every model was tried.
    public var stop: Stop?

    /// Why a snapshot stopped early.
    public enum Stop: Sendable {
        case cancelled(model: String)
        case failed(model: String, ExecutionError)
        case writeFailed(SnapshotError)
        /// The API cannot be resolved (no endpoint, no credentials): nothing was listed.
        case unavailable(ContextError)
    }

    /// `snapshot DIR: 3 models, 12 records; skipped: Comment`: what a snapshot that tried every model holds.
    public func summary(directory: String) -> String {
        let complete = manifest.models.filter(\.complete)
        let skipped = manifest.models.compactMap { $0.skipped == nil ? nil : $0.name }
        return "snapshot \(directory): \(complete.count) model\(complete.count == 1 ? "" : "s"), \(complete.reduce(0) { $0 + $1.count }) records"
            + (skipped.isEmpty ? "" : "; skipped: \(skipped.joined(separator: ", "))")
    }

    /// 0 when complete, 3 when a model was skipped, else the stop's kind.
    public var kind: ResultKind {
        switch stop {
        case .cancelled?: return .cancelled
        case .failed(_, let error)?: return error.kind
        case .writeFailed?: return .graphQLErrors
        case .unavailable?: return .invalidInput
        case nil: return manifest.models.contains { $0.skipped != nil } ? .partial : .success
        }
    }
}

/// Lists models through the API into a snapshot directory: `MODEL.ndjson` (one record per line, every scalar field
/// with keys and foreign keys, as `list` prints them) and `manifest.json`, rewritten after each model and at an
/// interruption so that it always says which models are complete. Memory stays flat: each page is written as it arrives.
public struct SnapshotJob {
    /// The schema whose models are listed.
    public var schema: ModelSchema
    /// The snapshot directory.
    public var directory: String
    /// The models to list, in order.
    public var models: [String]
    /// The manifest to start from (a resumed snapshot's), or a new one.
    public var manifest: SnapshotManifest
    /// The records asked for on each page.
    public var pageSize: Int = Defaults.pageSize

    /// A snapshot of `models` into `directory`, starting from `manifest`.
    public init(schema: ModelSchema, directory: String, models: [String], manifest: SnapshotManifest) {
        self.schema = schema
        self.directory = directory
        self.models = models
        self.manifest = manifest
        for name in models where manifest.entry(name) == nil { self.manifest.models.append(.init(name: name)) }
    }

    /// Why a model cannot be listed before anything is sent (its list operation is disabled), or nil.
    public static func unlistable(_ model: Model) -> String? {
        model.operations.list == nil ? "its list operation is disabled in the schema" : nil
    }

    /// Runs the job; `client(model)` gives the client for a model (its auth mode), or the reason it cannot be read.
    public func run(
        client: (Model) -> Result<GraphQLClient, SnapshotSkip>, events: (SnapshotEvent) -> Void
    ) -> SnapshotOutcome {
        var manifest = self.manifest
        let builder = RequestBuilder(schema: schema)
        func save() -> SnapshotError? {
            do { try manifest.write(directory: directory) } catch { return error }
            return nil
        }
        if let error = save() { return SnapshotOutcome(manifest: manifest, stop: .writeFailed(error)) }
        for name in models {
            guard let index = manifest.models.firstIndex(where: { $0.name == name }), let model = schema.models[name] else { continue }
            if manifest.models[index].complete {
                events(.alreadyComplete(name, count: manifest.models[index].count))
                continue
            }
            manifest.models[index] = .init(name: name, file: manifest.models[index].file)
            func skip(_ reason: String) {
                manifest.models[index].skipped = reason
                events(.modelSkipped(name, reason: reason))
            }
            /// Skips the model and saves the manifest, so that it says why; the outcome if saving failed.
            func skipped(_ reason: String) -> SnapshotOutcome? {
                skip(reason)
                return save().map { SnapshotOutcome(manifest: manifest, stop: .writeFailed($0)) }
            }
            if let reason = Self.unlistable(model) {
                if let stop = skipped(reason) { return stop }
                continue
            }
            let listingClient: GraphQLClient
            switch client(model) {
            case .success(let made): listingClient = made
            case .failure(let reason):
                if let stop = skipped(reason.reason) { return stop }
                continue
            }
            let requests: ListRequests
            do {
                requests = try builder.listPages(name, fields: .all)
            } catch {
                if let stop = skipped("\(error)") { return stop }
                continue
            }
            events(.modelStarted(name))
            let file: RecordFileWriter
            do {
                file = try RecordFileWriter(path: directory + "/" + manifest.models[index].file)
            } catch {
                return SnapshotOutcome(manifest: manifest, stop: .writeFailed(error))
            }
            var total = 0
            let pager = ListPager(
                client: listingClient, connectionPath: [requests.rootField], pageSize: pageSize,
                makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
            let result = pager.run { items in
                try file.append(items)
                total += items.count
                events(.page(model: name, items: items.count, total: total))
            }
            manifest.models[index].count = total
            var stop: SnapshotOutcome.Stop?
            do {
                try file.finish()
            } catch {
                stop = .writeFailed(error)
            }
            switch result.stop {
            case .endOfList, .limitReached:
                if stop == nil {
                    manifest.models[index].complete = true
                    events(.modelFinished(name, count: total))
                }
            case .cancelled: stop = .cancelled(model: name)
            case .graphQLErrors(let errors), .partial(let errors):
                // Refused (an auth rule this caller does not meet): named and skipped, the rest go on.
                skip(errors.map(\.message).joined(separator: "; "))
            case .failed(let error): stop = .failed(model: name, error)
            case .consumerFailed(let error): stop = .writeFailed((error as? SnapshotError) ?? .writeFailed("\(error)"))
            }
            if let error = save(), stop == nil { stop = .writeFailed(error) }
            if let stop { return SnapshotOutcome(manifest: manifest, stop: stop) }
        }
        return SnapshotOutcome(manifest: manifest, stop: nil)
    }
}

/// Why a model is skipped before its listing: the chosen auth mode cannot be used for it.
public struct SnapshotSkip: Error, Sendable {
    /// Why, as one line.
    public var reason: String
    /// A skip said by `reason`.
    public init(_ reason: String) { self.reason = reason }
}
