extension SnapshotOutcome {
    /// Says how the snapshot in `directory` ended: why it stopped early (through `diagnostics`, ending with `resume`,
    /// the front end's way to finish it), else its summary line on `notes`.
    public func report(directory: String, resume: String, notes: any OutputSink, diagnostics: any DiagnosticSink) {
        switch stop {
        case .cancelled(let model)?:
            diagnostics.error("interrupted while listing \(model); \(SnapshotManifest.fileName) says which models are complete: \(resume)")
        case .failed(let model, let error)?:
            diagnostics.error(error)
            diagnostics.error("listing \(model) failed; \(resume)")
        case .writeFailed(let error)?:
            diagnostics.error(error.description)
        case .unavailable?:
            break  // the front end says why, in its own words
        case nil:
            notes.write(summary(directory: directory) + "\n")
        }
    }
}

extension DiffUnavailability {
    /// Why a model is not compared, its side named by `side` (`(--to)`); `finish` says how an incomplete snapshot in a
    /// directory is finished.
    public func reason(side: String, finish: (_ directory: String) -> String) -> String {
        switch self {
        case .notInSnapshot(let directory): return "the snapshot \(directory) (\(side)) does not hold it"
        case .incompleteInSnapshot(let directory, let skipped):
            let why = skipped.map { "skipped (\($0))" } ?? "incomplete (finish it with \(finish(directory)))"
            return "the snapshot \(directory) (\(side)) has it \(why)"
        case .unlistable(let reason): return "\(reason) (\(side))"
        }
    }
}

extension SnapshotEvent {
    /// Writes the event: a page advances `progress`; the event's line goes above it, on `notes` (a skipped model's
    /// through `say`, as a diagnostic).
    public func write(progress: ProgressReporter?, notes: any OutputSink, say: (String) -> Void) {
        if case .page(_, let items, _) = self { progress?.advance(items: items, pages: 1) }
        guard let line else { return }
        ProgressReporter.above(progress) { line.isDiagnostic ? say(line.text) : notes.write(line.text + "\n") }
    }
}

extension CopyOperation {
    /// A dry run's report: ``countSource(_:)``'s line per model on `output`, then (through `say`) the model whose
    /// counting failed, when one did; how it ended.
    public func reportCount(_ source: JobContext, output: any OutputSink, say: (String) -> Void) -> ResultKind {
        let (lines, failed) = countSource(source)
        output.write(lines.map { $0 + "\n" }.joined())
        guard let failed else { return .success }
        say("counting \(failed.model) in the source failed")
        return failed.kind
    }
}
