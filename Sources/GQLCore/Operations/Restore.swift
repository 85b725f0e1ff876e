import Synchronization

/// What a restore does besides creating: `--skip-existing`, `--force`, the owner map, the workers.
public struct RestoreOptions: Sendable {
    /// A record whose key exists counts as skipped, not failed.
    public var skipExisting = false
    /// Restore what fits when the schemas differ: members the target lacks are left out.
    public var force = false
    /// Old owner value to new, for the declared owner fields of owner auth rules.
    public var ownerMap: [String: String] = [:]
    /// How many creates are in flight at once.
    public var concurrency = 8

    /// The defaults: nothing skipped or forced, no owner map.
    public init() {}
}

/// One model's tally.
public struct RestoreCounts: Sendable, Equatable {
    /// Records created.
    public var restored = 0
    /// Records left alone because their key exists (with skipping of existing records).
    public var skipped = 0
    /// Records whose create failed.
    public var failed = 0
    /// Not sent, or interrupted in flight.
    public var unfinished = 0
    /// Deferred links set by the second pass, and those that failed.
    public var linked = 0
    /// Deferred links whose update failed.
    public var linkFailed = 0
    /// The source's records ended early (a listing failed).
    public var sourceFailed = false

    /// A tally of nothing.
    public init() {}

    /// `Post: 5 restored, 0 skipped, 0 failed; 3 links set`: the model's line in a restore's report.
    public func summary(model: String) -> String {
        var line = "\(model): \(restored) restored, \(skipped) skipped, \(failed) failed"
        if unfinished > 0 { line += ", \(unfinished) not finished" }
        if sourceFailed { line += " (listing incomplete)" }
        if linked + linkFailed > 0 { line += "; \(linked) links set" + (linkFailed > 0 ? ", \(linkFailed) failed" : "") }
        return line
    }
}

/// What a restore reports; the executable renders it.
public enum RestoreEvent: Sendable {
    case modelStarted(String, records: Int)
    /// One record's create (or, in the second pass, its deferred links' update) ended; `skipped` when it existed.
    case item(model: String, BulkItemResult, pass: RestorePass, skipped: Bool)
    case modelFinished(String, RestoreCounts)
    /// The second pass for a model's deferred links starts.
    case linksStarted(String, fields: [String])
    /// The model's records ended early: the source's listing failed.
    case sourceFailed(String, String)
    /// The shared pacing started or changed under throttling, and why.
    case pacing(String, PacingNotice)
}

/// The create pass, or the second pass that sets deferred links.
public enum RestorePass: Sendable, Equatable { case create, links }

/// How a restore ended.
public struct RestoreOutcome: Sendable {
    /// Each model's tally, in order.
    public var counts: [(model: String, counts: RestoreCounts)]
    /// How the job ended: at the end of its input, interrupted, halted, or on input it could not read.
    public var stop: BulkRunner.Stop
    /// A record file that could not be opened.
    public var fileError: SnapshotError?
    /// A model's client could not be made: nothing was sent.
    public var unavailable: ContextError?
    /// Models asked for were left out (a snapshot's incomplete ones): at best a partial restore.
    public var modelsLeftOut = false
    /// `PATH: reason` when a rejects file could not be opened or written: some failed records may be missing from it.
    public var rejectsFailure: String?

    /// 0 when every record was restored or skipped, 3 when some failed, 130 when interrupted.
    public var kind: ResultKind {
        if stop == .cancelled { return .cancelled }
        if fileError != nil { return .invalidInput }
        if case .inputFailed = stop { return .invalidInput }
        if unavailable != nil { return .invalidInput }
        let bad = counts.contains { $0.counts.failed + $0.counts.unfinished + $0.counts.linkFailed > 0 || $0.counts.sourceFailed }
        return bad || modelsLeftOut ? .partial : .success
    }
}

/// Creates a snapshot's records through the API in the plan's order, with the bulk engine: each model's file is
/// streamed (memory stays flat), `concurrency` requests in flight with adaptive pacing, each create carrying its
/// record's key so that a retry cannot make a duplicate. Deferred links are set by updates once every model is created.
public struct RestoreJob: Sendable {
    /// The target's schema.
    public var schema: ModelSchema
    /// The snapshot directory.
    public var directory: String
    /// The snapshot's manifest: its models and their files.
    public var manifest: SnapshotManifest
    /// The order of the creates and the links set afterwards.
    public var plan: RestorePlan
    /// What the restore does besides creating.
    public var options: RestoreOptions
    /// How failed requests are tried again.
    public var retry: RetryPolicy
    /// Set to stop the job: nothing more is started.
    public var cancellation: CancellationFlag?
    /// Opens a model's records (its name and the manifest's file); by default the snapshot directory's file.
    public var openRecords: @Sendable (_ model: String, _ file: String) throws(SnapshotError) -> any RecordStream

    /// A restore of `directory`'s records by `plan`; records are read from the snapshot directory's files.
    public init(
        schema: ModelSchema, directory: String, manifest: SnapshotManifest, plan: RestorePlan, options: RestoreOptions,
        retry: RetryPolicy, cancellation: CancellationFlag?
    ) {
        self.schema = schema
        self.directory = directory
        self.manifest = manifest
        self.plan = plan
        self.options = options
        self.retry = retry
        self.cancellation = cancellation
        openRecords = { _, file throws(SnapshotError) in try RecordFileReader(path: directory + "/" + file) }
    }

    /// The declared owner fields of `model`'s owner rules (those a create input can carry), and the implicit ones.
    public static func ownerFields(of model: Model) -> (declared: [String], implicit: [String]) {
        var declared: [String] = []
        var implicit: [String] = []
        for rule in model.authRules where rule.allow == "owner" {
            let name = rule.ownerField ?? "owner"
            if let field = model.field(named: name), !field.isReadOnly {
                if !declared.contains(name) { declared.append(name) }
            } else if !implicit.contains(name) {
                implicit.append(name)
            }
        }
        return (declared, implicit)
    }

    /// Runs the plan; `client(model)` is the client for a model's requests (its auth mode; a model without one is left out).
    public func run(client: (Model) -> GraphQLClient?, events: @escaping @Sendable (RestoreEvent) -> Void) -> RestoreOutcome {
        var outcome = RestoreOutcome(counts: [], stop: .endOfInput)
        var deferredSteps: [(RestorePlan.Step, GraphQLClient, Int)] = []
        for step in plan.steps {
            guard let model = schema.models[step.model], let entry = manifest.entry(step.model), let modelClient = client(model)
            else { continue }
            events(.modelStarted(step.model, records: entry.count))
            let result = pass(.create, step: step, model: model, file: entry.file, client: modelClient, start: RestoreCounts(), events: events)
            if let error = result.fileError {
                outcome.fileError = error
                return outcome
            }
            outcome.counts.append((step.model, result.counts))
            if !step.deferred.isEmpty { deferredSteps.append((step, modelClient, outcome.counts.count - 1)) }
            if result.stop != .endOfInput {
                outcome.stop = result.stop
                events(.modelFinished(step.model, outcome.counts[outcome.counts.count - 1].counts))
                return outcome
            }
            if step.deferred.isEmpty { events(.modelFinished(step.model, outcome.counts[outcome.counts.count - 1].counts)) }
        }
        for (step, modelClient, index) in deferredSteps {
            guard let model = schema.models[step.model], let entry = manifest.entry(step.model) else { continue }
            events(.linksStarted(step.model, fields: step.deferred))
            let result = pass(
                .links, step: step, model: model, file: entry.file, client: modelClient, start: outcome.counts[index].counts, events: events)
            outcome.counts[index].counts = result.counts
            events(.modelFinished(step.model, outcome.counts[index].counts))
            if let error = result.fileError {
                outcome.fileError = error
                return outcome
            }
            if result.stop != .endOfInput {
                outcome.stop = result.stop
                return outcome
            }
        }
        return outcome
    }

    private func pass(
        _ pass: RestorePass, step: RestorePlan.Step, model: Model, file: String, client: GraphQLClient,
        start: RestoreCounts, events: @escaping @Sendable (RestoreEvent) -> Void
    ) -> (counts: RestoreCounts, stop: BulkRunner.Stop, fileError: SnapshotError?) {
        var reader: any RecordStream
        do {
            reader = try openRecords(model.name, file)
        } catch {
            return (start, .endOfInput, error)
        }
        defer { reader.close() }
        let builder = RequestBuilder(schema: schema)
        let options = self.options
        let deferred = Set(step.deferred)
        let owners = Self.ownerFields(of: model).declared
        // The belongs-to fields holding a deferred key go from the creates too: their key objects would set it again.
        let deferredRelations = model.relationshipFields.filter { field in
            (schema.relationship(of: field)?.foreignKeys ?? []).contains(where: deferred.contains)
        }.map(\.name)
        let name = model.name
        var runner = BulkRunner(
            operation: pass == .create ? .create : .update, concurrency: options.concurrency, retry: retry,
            cancellation: cancellation,
            makeClient: { _ in
                // Each worker its own curl handle; another transport (a test's) is shared as given.
                var own = client
                if own.transport is CurlTransport { own.transport = CurlTransport() }
                return own
            })
        runner.pacingNotice = { events(.pacing(name, $0)) }
        let counts = Tally(start)
        var linkIndex = 0
        let (_, stop) = runner.run(
            next: { () throws(BulkInputError) -> BulkInputItem? in
                guard pass == .links else { return try reader.nextItem() }
                // The second pass: only records that hold a deferred link, numbered afresh (the runner hands results
                // out in input order by this number).
                while let item = try reader.nextItem() {
                    guard case .object(let record)? = try? item.parse() else { continue }
                    if deferred.contains(where: { record[$0].map { !$0.isNull } ?? false }) {
                        defer { linkIndex += 1 }
                        return BulkInputItem(index: linkIndex, line: item.line, bytes: item.bytes)
                    }
                }
                return nil
            },
            readRestWhenCancelled: false,
            prepare: { item in
                let parsed: JSONValue
                do throws(JSONParseError) {
                    parsed = try item.parse()
                } catch {
                    return .failure(BulkPrepareFailure("invalid JSON at \(error.line):\(error.column): \(error.message)"))
                }
                guard case .object(let record) = parsed else { return .failure(BulkPrepareFailure("expected a JSON object")) }
                var values = options.force ? SchemaFit.fitted(record, to: model) : record
                for field in owners {
                    if let old = values[field]?.stringValue, let new = options.ownerMap[old] { values[field] = .string(new) }
                }
                let key = model.key(of: record)
                do throws(RequestBuildError) {
                    if pass == .create {
                        for field in deferred { values[field] = nil }
                        for field in deferredRelations { values[field] = nil }
                        let request = try builder.create(name, values: RecordValues(input: .object(values)), fields: .keysOnly)
                        return .success(BulkRequest(request: request, lookup: nil, key: key))
                    }
                    var links = key
                    for field in step.deferred { links[field] = values[field] ?? .null }
                    let request = try builder.update(name, key: nil, values: RecordValues(input: .object(links)), fields: .keysOnly)
                    return .success(BulkRequest(request: request, lookup: nil, key: key))
                } catch {
                    return .failure(BulkPrepareFailure(error.message(naming: { _ in "" })))
                }
            },
            emit: { result in
                var skipped = false
                counts.update { counts in
                    switch (result.outcome, pass) {
                    case (.done, .create): counts.restored += 1
                    case (.done, .links): counts.linked += 1
                    case (.failed(.alreadyExists), .create) where options.skipExisting:
                        counts.skipped += 1
                        skipped = true
                    case (.failed, .create): counts.failed += 1
                    case (.failed, .links): counts.linkFailed += 1
                    case (.notSent, _), (.interrupted, _): counts.unfinished += 1
                    }
                }
                events(.item(model: name, result, pass: pass, skipped: skipped))
            })
        if let failure = reader.failure {
            counts.update { $0.sourceFailed = true }
            events(.sourceFailed(name, failure))
        }
        return (counts.value, stop, nil)
    }
}

/// A tally the bulk runner's results update, from its workers' threads.
private final class Tally: Sendable {
    private let counts: Mutex<RestoreCounts>
    init(_ start: RestoreCounts) { counts = Mutex(start) }
    func update(_ change: (inout RestoreCounts) -> Void) { counts.withLock { change(&$0) } }
    var value: RestoreCounts { counts.withLock { $0 } }
}
