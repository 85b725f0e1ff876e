/// One side of a diff: a snapshot directory, or an API listed over its job context.
public enum DiffSide: Sendable {
    case snapshot(directory: String, SnapshotManifest)
    case api(JobContext)

    /// The snapshot in `path` when it holds a manifest; nil when it does not (it names an API instead).
    public static func snapshot(at path: String) throws(SnapshotError) -> DiffSide? {
        try SnapshotManifest.read(directory: path).map { .snapshot(directory: path, $0) }
    }
}

/// Why a model cannot be compared on one side.
public enum DiffUnavailability: Sendable, Equatable {
    /// The snapshot in the directory does not hold it.
    case notInSnapshot(directory: String)
    /// The snapshot holds it unfinished: skipped (with why), or interrupted.
    case incompleteInSnapshot(directory: String, skipped: String?)
    /// The API cannot list it (why).
    case unlistable(String)

    /// A snapshot that lists the model but did not finish it: said, not silently left out.
    public var isIncomplete: Bool {
        if case .incompleteInSnapshot = self { return true }
        return false
    }
}

/// Why a diff cannot start: nothing was compared.
public enum DiffCheckError: Error, Sendable, Equatable {
    /// A model named that the schema does not have.
    case unknownModel(SnapshotError)
    /// A model named that a side cannot give (`toSide`: the `to` side's doing).
    case unavailable(model: String, DiffUnavailability, toSide: Bool)
}

/// How a diff ended: whether the sides differ, or the model that could not be compared and why (the models before it
/// were compared).
public struct DiffOutcome: Sendable {
    /// Whether any record differs.
    public var differ = false
    /// The model that could not be compared, and why; nil when every model was.
    public var failure: (model: String, DiffFailure)?
}

/// A comparison of each model's records on two sides (snapshot directories or APIs) by primary key, by
/// ``RecordDiff``: the models are checked against both sides before anything is read.
public struct DiffOperation: Sendable {
    /// One side: a snapshot directory or an API.
    public let from: DiffSide
    /// The other side.
    public let to: DiffSide
    /// The models compared, in order.
    public let models: [String]
    /// The schema the models are compared by.
    public let schema: ModelSchema
    /// More fields never compared.
    public var ignore: Set<String> = []
    /// When given, only these fields (and the key) are compared.
    public var fields: [String]?

    /// Checks `models` (empty: every model of `schema` both sides can give) against the sides; a model left out of
    /// "every model" because a snapshot did not finish it is told to `incomplete` (with the side: true for `to`).
    public init(
        models given: [String], schema: ModelSchema, from: DiffSide, to: DiffSide,
        incomplete: (String, DiffUnavailability, _ toSide: Bool) -> Void
    ) throws(DiffCheckError) {
        for name in given where schema.models[name] == nil {
            throw .unknownModel(.unknownModel(name, known: schema.modelNames))
        }
        var models: [String] = []
        for name in given.isEmpty ? schema.modelNames : given {
            let reasons = [(from, false), (to, true)].compactMap { side, isTo in
                Self.unavailable(name, on: side, schema: schema).map { ($0, isTo) }
            }
            guard let (reason, isTo) = reasons.first else {
                models.append(name)
                continue
            }
            if !given.isEmpty { throw .unavailable(model: name, reason, toSide: isTo) }
            if reason.isIncomplete { incomplete(name, reason, isTo) }
        }
        self.from = from
        self.to = to
        self.models = models
        self.schema = schema
    }

    /// Why `model` cannot be read on `side`, or nil.
    static func unavailable(_ model: String, on side: DiffSide, schema: ModelSchema) -> DiffUnavailability? {
        switch side {
        case .snapshot(let directory, let manifest):
            guard let entry = manifest.entry(model) else { return .notInSnapshot(directory: directory) }
            return entry.complete ? nil : .incompleteInSnapshot(directory: directory, skipped: entry.skipped)
        case .api:
            return schema.models[model].flatMap(SnapshotJob.unlistable).map(DiffUnavailability.unlistable)
        }
    }

    /// Compares each model in turn: `emit` gets each difference, `finished` each model's counts once it is compared to
    /// the end; a side that cannot be read stops the comparison. `reason` words a client that could not be made.
    public func run(
        reason: (ContextError) -> String, emit: (RecordDifference) -> Void, finished: (String, DiffCounts) -> Void
    ) -> DiffOutcome {
        var outcome = DiffOutcome()
        for name in models {
            guard let model = schema.models[name] else { continue }
            let diff = RecordDiff(model: model, ignore: ignore, fields: fields)
            do throws(DiffFailure) {
                let counts = try diff.run(
                    open: { isTo throws(SnapshotError) in try Self.open(name, on: isTo ? to : from, reason: reason) }, emit: emit)
                if !counts.same { outcome.differ = true }
                finished(name, counts)
            } catch {
                outcome.failure = (name, error)
                return outcome
            }
        }
        return outcome
    }

    /// A model's records on one side: its snapshot file, or a listing of the API.
    private static func open(_ model: String, on side: DiffSide, reason: (ContextError) -> String) throws(SnapshotError) -> any RecordStream {
        switch side {
        case .snapshot(let directory, let manifest):
            return try RecordFileReader(path: directory + "/" + (manifest.entry(model)?.file ?? model + ".ndjson"))
        case .api(let context):
            let client: GraphQLClient
            do throws(ContextError) {
                client = try context.client(for: context.schema.models[model])
            } catch {
                throw .unreadable(reason(error))
            }
            do throws(RequestBuildError) {
                return ListingStream(pager: try context.listing(model, client: client))
            } catch {
                throw .unreadable("\(error)")
            }
        }
    }
}

extension DiffOperation {
    /// Runs with each difference worded by `line` waiting in `spool` (memory stays flat) and each model's summary
    /// worded by `summary`, so that every summary can come first and the differences after them.
    public func run(
        spooling spool: SpoolFile, reason: (ContextError) -> String, line: (RecordDifference) -> String,
        summary: (String, DiffCounts) -> String
    ) -> SpooledDiff {
        var spooled = SpooledDiff(spool: spool)
        spooled.outcome = run(reason: reason) { difference in
            do throws(SpoolError) { try spool.append(line(difference)) } catch { spooled.failure = spooled.failure ?? error }
        } finished: { name, counts in
            spooled.summary += summary(name, counts)
            spooled.complete = spool.count
        }
        return spooled
    }
}

/// A diff whose differences wait in a spool file: the summaries, how it ended, and the differences to read back.
public struct SpooledDiff {
    /// Whether the sides differ, or which model could not be compared.
    public internal(set) var outcome = DiffOutcome()
    /// Every model's summary, in order.
    public internal(set) var summary = ""
    /// The spool could not be written.
    public internal(set) var failure: SpoolError?
    let spool: SpoolFile
    /// The spooled bytes of the models compared to the end (a model that failed part way is not reported).
    var complete = 0

    /// Whether any difference of a model compared to the end waits.
    public var hasDifferences: Bool { complete > 0 }

    /// Reads the differences of the models compared to the end back, in chunks; `write` returns false to stop.
    public func replay(_ write: ([UInt8]) -> Bool) throws(SpoolError) {
        var left = complete
        try spool.replay { chunk in
            let part = Array(chunk.prefix(left))
            left -= part.count
            return write(part) && left > 0
        }
    }
}
