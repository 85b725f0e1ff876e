import Synchronization

/// What a bulk job's report leaves to the front end's own words: what names its options and commands (each a typed
/// hint, said in one place), and an execution error's message, which may name a parameter. ``BulkWriteReport`` says
/// everything else.
public protocol BulkWritePhrasing: Sendable {
    /// The input, as a message's prefix names it (the option that gave it).
    var input: String { get }
    /// The rejects file, as a message names it (the option that gave it).
    var rejects: String { get }
    /// How to see what one deleted `model` record had under it (when the orphan check was skipped).
    func showCascade(model: String) -> String
    /// What deletes a `model` record together with the records that point at it.
    func cascade(model: String) -> String
    /// How to read back the `model` record of `key`, to check a write gqlc cannot confirm; nil for none.
    func check(model: String, key: JSONObject) -> String?
    /// An execution error's message.
    func message(_ error: ExecutionError) -> String
}

/// The words of a bulk job's item messages, for one model and operation.
public struct BulkItemWords: Sendable {
    public let model: String
    public let operation: BulkOperation
    public let phrasing: any BulkWritePhrasing

    public init(model: String, operation: BulkOperation, phrasing: any BulkWritePhrasing) {
        (self.model, self.operation, self.phrasing) = (model, operation, phrasing)
    }

    /// `posts.ndjson:12` (an input item), or `Post id=p1` (a record a listing found).
    public func place(_ result: BulkItemResult, _ inputName: String) -> String {
        if result.item.line > 0 { return "\(inputName):\(result.item.line)" }
        return "\(model) " + (result.key.map(key) ?? "record \(result.item.index + 1)")
    }

    /// `id=p1`, `sku=A-1, warehouseId=w1`.
    public func key(_ key: JSONObject) -> String { key.keyText }

    /// Why an item failed, as one line.
    public func message(_ failure: BulkItemFailure) -> String {
        switch failure {
        case .invalid(let message): return message
        case .execution(let error): return phrasing.message(error)
        case .errors(let errors): return errors.map(\.description).joined(separator: "; ")
        case .alreadyExists(let key, let afterRetry):
            let exists = "\(model) already has a record with key \(self.key(key))"
            return afterRetry ? exists + "; " + ownAttemptMayBeWhy(.create, key: key) : exists
        case .refusedAfterRetry(let key):
            return "the \(operation.rawValue) of \(model) \(self.key(key)) was refused; " + ownAttemptMayBeWhy(operation, key: key)
        case .notFound(let key): return "no \(model) with key \(self.key(key))"
        }
    }

    /// `gqlc retried this update after an attempt without an answer, and its own earlier attempt may have been
    /// applied (check with: …)`.
    public func ownAttemptMayBeWhy(_ operation: BulkOperation, key: JSONObject) -> String {
        let check = phrasing.check(model: model, key: key).map { " (check with: \($0))" } ?? ""
        let effect = operation == .create ? "may have made it" : "may have been applied"
        return "gqlc retried this \(operation.rawValue) after an attempt without an answer, and its own earlier attempt "
            + effect + check
    }
}

/// Writes a ``BulkWriteOperation``'s events: records to the output (above the progress line when they share the
/// terminal), each failure as one line through `say`, its input line to the rejects file, the closing reports, and
/// the summary line on `summary`. From the job's threads, one event at a time.
public final class BulkWriteReport: Sendable {
    /// Where the report writes, and what it asks of the front end.
    public struct Sinks: Sendable {
        /// Records and a dry run's request bodies.
        public var output: any OutputSink
        /// Whether a write of `output` has failed (the job then stops starting records, and prints no more).
        public var outputFailed: @Sendable () -> Bool
        /// The records, as the output format prints them.
        public var records: BulkRecordPrinter
        /// The progress line, on a terminal.
        public var progress: ProgressReporter?
        /// Whether the records go to the terminal the progress line is on.
        public var recordsShareProgress: Bool
        /// One diagnostic line (a failure, a warning, a note).
        public var say: @Sendable (String) -> Void
        /// The summary line's sink.
        public var summary: any OutputSink
        /// A failure to read the records' versions before the job: the request's own errors, in the front end's words
        /// (by default each said through `say`).
        public var diagnostics: any DiagnosticSink & Sendable
        /// Called before a job that sends (not a dry run): makes a failed write of `output` return false instead of
        /// ending the process, so that the job stops starting records and each one is accounted for.
        public var deferOutputFailures: (@Sendable () -> Void)?

        public init(
            output: any OutputSink, outputFailed: @escaping @Sendable () -> Bool, records: BulkRecordPrinter,
            progress: ProgressReporter?, recordsShareProgress: Bool, say: @escaping @Sendable (String) -> Void,
            summary: any OutputSink, diagnostics: (any DiagnosticSink & Sendable)? = nil
        ) {
            (self.output, self.outputFailed, self.records, self.progress) = (output, outputFailed, records, progress)
            (self.recordsShareProgress, self.say, self.summary) = (recordsShareProgress, say, summary)
            self.diagnostics = diagnostics ?? SaidDiagnostics(say: say)
        }

        /// A terminal program's sinks: records, request bodies and the summary on `console`'s streams (records above the
        /// progress line when the output is that terminal, the output's failures deferred for a job that sends), each
        /// line of a failure through `diagnostics`.
        public init(console: Console, records: BulkRecordPrinter, progress: ProgressReporter?, diagnostics: any DiagnosticSink & Sendable) {
            self.init(
                output: console.output, outputFailed: { console.output.failure != nil }, records: records, progress: progress,
                recordsShareProgress: progress != nil && console.outputIsTerminal, say: { diagnostics.error($0) },
                summary: console.error, diagnostics: diagnostics)
            deferOutputFailures = { console.output.deferFailures() }
        }
    }

    private let sinks: Sinks
    private let rejects: RejectsFile?
    private let words: BulkItemWords
    private let inputName: String
    private let dryRun: Bool
    /// A dry run's request bodies not yet written, how the job ended, and whether it never started (the versions it
    /// needed could not be read).
    private let state = Mutex<(bodies: JSONWriter, counts: BulkCounts, stop: BulkRunner.Stop, unstarted: Bool)>(
        (JSONWriter(style: .compact), BulkCounts(), .endOfInput, false))

    /// A report of a job over the input `inputName` (empty for records a listing found); `dryRun`: only request bodies.
    public init(sinks: Sinks, rejects: RejectsFile?, words: BulkItemWords, inputName: String, dryRun: Bool) {
        (self.sinks, self.rejects, self.words, self.inputName, self.dryRun) = (sinks, rejects, words, inputName, dryRun)
    }

    /// Writes one event; false when its record or rejected line could not be written.
    public func write(_ event: BulkWriteEvent) -> Bool {
        let (progress, say) = (sinks.progress, sinks.say)
        switch event {
        case .progress(let counts): progress?.update(items: counts.total, failed: counts.failed)
        case .pacing(let notice):
            // Said even off a terminal: a job that slows itself down says why.
            ProgressReporter.above(progress) { say(notice.description) }
        case .item(let result, let firstTime): return item(result, firstTime: firstTime)
        case .jobEnded(let counts, let stop):
            if !sinks.outputFailed() { sinks.records.finish() }
            progress?.clear()
            state.withLock { ($0.counts, $0.stop) = (counts, stop) }
        case .repeatedFailure(let repeated): say(repeated.line(inputName: inputName))
        case .inputFailed(let error, let itemsBeforeDone):
            guard itemsBeforeDone else {
                flush()
                say("\(words.phrasing.input): \(error.description)")
                break
            }
            // A file error names the file itself.
            let what = if case .file(let fileError) = error { fileError.reason } else { error.description }
            say("\(words.phrasing.input): \(inputName): \(what); the records before it were processed")
        case .orphansNotChecked(let count, let limit):
            say("warning: records that pointed at the \(count) deleted \(words.model) records were not checked (more than "
                + "\(limit): one query per record and association); \(words.phrasing.showCascade(model: words.model))")
        case .orphansLeft(let orphans):
            let model = words.model
            say("warning: \(orphans.model) records (\(model).\(orphans.association)) are left pointing at \(orphans.records) "
                + "of the \(orphans.deleted) deleted \(model) records; \(words.phrasing.cascade(model: model))")
        case .wouldSend(let request):
            let full: [UInt8]? = state.withLock { state in
                state.bodies.write(request.body)
                state.bodies.bytes.append(UInt8(ascii: "\n"))
                guard state.bodies.bytes.count >= 1 << 16 else { return nil }
                defer { state.bodies.bytes.removeAll(keepingCapacity: true) }
                return state.bodies.bytes
            }
            if let full { sinks.output.write(bytes: full) }
        case .versionsNotRead: say(VersionTable.dryRunNote(model: words.model))
        case .versionsFailed(let failure): versionsFailed(failure)
        }
        return true
    }

    /// Why the job did not start: the listing's own errors, then (unless a request could not be built) that nothing
    /// was changed; no summary follows.
    private func versionsFailed(_ failure: VersionTable.Failure) {
        state.withLock { $0.unstarted = true }
        let diagnostics = sinks.diagnostics
        switch failure {
        case .request(let error): return diagnostics.error(error)
        case .execution(let error): diagnostics.error(error)
        case .errors(let errors): diagnostics.graphQLErrors(errors)
        case .cancelled: break
        }
        sinks.say(failure.ending(model: words.model))
    }

    /// Runs `operation` over `context` with this report taking its events, each worker's retry notices kept above the
    /// progress line; without a context (a dry run) it only writes the requests the items would send. The versions a
    /// conflict-detection update or delete needs are read first, and the rejects file is emptied only once the job
    /// starts.
    public func run(
        _ operation: BulkWriteOperation, in context: APIContext?, next: () throws(BulkInputError) -> BulkInputItem?,
        readRestWhenCancelled: Bool
    ) -> ResultKind {
        guard let context else {
            rejects?.start()
            return operation.dryRun(next: next, events: write)
        }
        sinks.deferOutputFailures?()
        var operation = operation
        // Versions that cannot be read stop the job before it starts: an earlier run's rejects stay as they were.
        if let failed = operation.readVersions(in: context, events: write) { return failed }
        rejects?.start()
        operation.workerClient = { [connect = operation.workerClient, progress = sinks.progress] client in
            var own = connect(client)
            progress?.keepNoticesAbove(&own)
            return own
        }
        return operation.run(in: context, next: next, readRestWhenCancelled: readRestWhenCancelled, events: write)
    }

    private func item(_ result: BulkItemResult, firstTime: Bool) -> Bool {
        let (progress, say) = (sinks.progress, sinks.say)
        switch result.outcome {
        case .done(let record):
            guard !sinks.outputFailed() else { return true }
            var printed = false
            ProgressReporter.above(sinks.recordsShareProgress ? progress : nil) { printed = sinks.records.write(record) }
            return printed
        case .failed(.invalid) where !firstTime:
            break  // said once, and counted for the end
        case .failed(let failure):
            let message = "\(words.place(result, inputName)): \(words.message(failure))"
            ProgressReporter.above(progress) { say(message) }
        case .interrupted:
            let message = "\(words.place(result, inputName)): interrupted in flight; it may have been applied"
                + (result.key.map { " (key \(words.key($0)))" } ?? "")
            ProgressReporter.above(progress) { say(message) }
        case .notSent:
            break
        }
        guard let rejects, !rejects.write(result.rejectLine(words.operation), inputLine: result.item.line) else { return true }
        if dryRun, let failure = rejects.failure {
            // A dry run stops at once, its unwritten bodies dropped.
            state.withLock { $0.bodies.bytes.removeAll() }
            say(failure.message(label: words.phrasing.rejects))
        }
        return false
    }

    private func flush() {
        let bytes = state.withLock { state in
            defer { state.bodies.bytes.removeAll(keepingCapacity: true) }
            return state.bodies.bytes
        }
        if !bytes.isEmpty { sinks.output.write(bytes: bytes) }
    }

    /// How a job ended, for its exit status.
    public struct Ending: Sendable, Equatable {
        /// A write of the rejects file failed.
        public var rejectsFailed: Bool
        /// The job was halted (its output failed): it stopped starting records.
        public var halted: Bool
    }

    /// After the job: a dry run's bodies not yet written; else what could not be written (the rejects file, the
    /// output: `outputFailure` says why, as `standard output was closed`), then the summary line.
    public func finish(outputFailure: String?) -> Ending {
        if state.withLock({ $0.unstarted }) { return Ending(rejectsFailed: false, halted: false) }
        if dryRun {
            flush()
            return Ending(rejectsFailed: rejects?.failure != nil, halted: false)
        }
        let (counts, stop) = state.withLock { ($0.counts, $0.stop) }
        let rejectsFailure = rejects?.failure
        if let rejectsFailure { sinks.say(rejectsFailure.message(label: words.phrasing.rejects)) }
        if let outputFailure {
            let rest = rejectsFailure == nil ? rejects.map { "; the records not sent are in \($0.path)" } ?? "" : ""
            sinks.say(outputFailure + "; stopped starting records" + rest)
        }
        sinks.summary.write(counts.summary(words.operation) + "\n")
        return Ending(rejectsFailed: rejectsFailure != nil, halted: stop == .halted)
    }
}

/// A diagnostic sink that says each line through `say`, in the core's own words.
private struct SaidDiagnostics: DiagnosticSink, Sendable {
    let say: @Sendable (String) -> Void

    func error(_ message: String) { say(message) }
    func error(_ failure: ExecutionError) { say(failure.description) }
    func error(_ failure: RequestBuildError) { say(failure.description) }
    func graphQLErrors(_ errors: [GraphQLError]) { errors.forEach { say($0.description) } }
}
