/// Writes a restore's or a copy's events (``RestoreEvent``): each record that failed or was interrupted in flight as
/// one line through `say`, the pacing under throttling, the progress line's count, and a summary line per model on
/// `notes`; then (``finish(_:interrupted:rejects:)``) why the job ended early. From the job's threads, one event at a time.
public struct RestoreReport: Sendable {
    /// The progress line, on a terminal.
    public let progress: ProgressReporter?
    private let notes: any OutputSink
    private let say: @Sendable (String) -> Void
    private let phrasing: any BulkWritePhrasing

    /// A report with the progress line `progress`, the model summaries on `notes` and the failures said through `say`,
    /// an execution error's message in `phrasing`'s words.
    public init(
        progress: ProgressReporter?, notes: any OutputSink, say: @escaping @Sendable (String) -> Void, phrasing: any BulkWritePhrasing
    ) {
        (self.progress, self.notes, self.say, self.phrasing) = (progress, notes, say, phrasing)
    }

    /// Writes one event.
    public func write(_ event: RestoreEvent) {
        let (progress, say) = (self.progress, self.say)
        switch event {
        case .modelStarted, .linksStarted: break
        case .pacing(let model, let notice):
            ProgressReporter.above(progress) { say("\(model): \(notice)") }
        case .sourceFailed(let model, let reason):
            ProgressReporter.above(progress) { say("listing \(model) failed: \(reason); its records after that were not copied") }
        case .item(let model, let result, let pass, let skipped):
            progress?.advance(items: 1)
            let words = BulkItemWords(model: model, operation: pass == .create ? .create : .update, phrasing: phrasing)
            let place = "\(model) " + (result.key.map(words.key) ?? "line \(result.item.line)")
            switch result.outcome {
            case .failed(let failure) where !skipped:
                let message = "\(place): \(pass == .create ? "" : "setting links: ")\(words.message(failure))"
                ProgressReporter.above(progress) { say(message) }
            case .interrupted:
                ProgressReporter.above(progress) { say("\(place): interrupted in flight; it may have been applied") }
            case .done, .failed, .notSent: break
            }
        case .modelFinished(let model, let counts):
            let notes = self.notes
            ProgressReporter.above(progress) { notes.write(counts.summary(model: model) + "\n") }
        }
    }

    /// How a restore or copy ended, once said.
    public struct Ending: Sendable, Equatable {
        /// How it ended.
        public var kind: ResultKind
        /// A rejects file could not be written: it lacks some of the records that failed.
        public var rejectsFailed: Bool
    }

    /// After the job: clears the progress line, then says why it ended early: a record file that could not be opened,
    /// an interruption (`interrupted`: how the front end finishes the job), a rejects file that could not be written
    /// (`rejects`: how it names that file). Says nothing of a client that could not be made (``RestoreOutcome/unavailable``),
    /// whose words are the front end's.
    public func finish(_ outcome: RestoreOutcome, interrupted: String, rejects: String) -> Ending {
        progress?.clear()
        if outcome.unavailable != nil { return Ending(kind: .invalidInput, rejectsFailed: false) }
        if let error = outcome.fileError {
            say(error.description)
            return Ending(kind: .invalidInput, rejectsFailed: false)
        }
        if outcome.stop == .cancelled {
            say("interrupted; \(interrupted)")
            return Ending(kind: .cancelled, rejectsFailed: false)
        }
        if let error = outcome.rejectsFailure {
            // The records it lacks were each named above; the file is not the whole list of them.
            say("cannot write \(rejects) file \(error); it lacks some of the records that failed")
            return Ending(kind: outcome.kind, rejectsFailed: true)
        }
        return Ending(kind: outcome.kind, rejectsFailed: false)
    }
}
