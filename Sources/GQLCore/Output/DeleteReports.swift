/// Writes a ``CascadeDeleteOperation``'s events: the plan as a tree (a dry run), the progress line (started with the
/// first delete, after any question), the record, and why it stopped.
public final class CascadeDeleteReport {
    private let notes: any OutputSink
    private let diagnostics: any DiagnosticSink
    private let printer: ResultPrinter
    /// The dry run's option, as its note names it; nil when the run is not one.
    private let dryRun: String?
    private let makeProgress: () -> ProgressReporter?
    private let model: String
    private let key: JSONObject
    private var progress: ProgressReporter?

    /// A report of the cascading delete of `model` `key`: the record through `printer`, the plan (`dryRun`: the option
    /// that asked for it, nil for a delete) and the counts on `notes`, failures through `diagnostics`.
    public init(
        printer: ResultPrinter, notes: any OutputSink, diagnostics: any DiagnosticSink, dryRun: String?,
        progress: @escaping () -> ProgressReporter?, model: String, key: JSONObject
    ) {
        (self.printer, self.notes, self.diagnostics, self.dryRun) = (printer, notes, diagnostics, dryRun)
        (makeProgress, self.model, self.key) = (progress, model, key)
    }

    public func write(_ event: CascadeDeleteEvent) {
        switch event {
        case .planned(let plan):
            guard let dryRun else { return }
            printer.sink.write(plan.outline.joined(separator: "\n") + "\n")
            notes.write("would delete \(plan.count) record\(plan.count == 1 ? "" : "s"); nothing was deleted (\(dryRun))\n")
        case .progress(let deleted):
            if deleted == 1 { progress = makeProgress() }
            progress?.update(items: deleted, failed: 0)
        case .deletionsEnded: progress?.clear()
        case .result(let root): printer.print(root)
        case .failed(let failure, let deleted): report(failure, deleted: deleted)
        case .deleted(let count, let byModel):
            notes.write("deleted \(count) records: \(byModel.map { "\($0.count) \($0.model)" }.joined(separator: ", "))\n")
        }
    }

    private func report(_ failure: CascadeDelete.Failure, deleted: Int) {
        let described = key.keyText
        switch failure {
        case .notFound: diagnostics.error("no \(model) with key \(described)")
        case .gone(let goneModel, let goneKey):
            diagnostics.error("no \(goneModel) with key \(goneKey.keyText) any more: it was deleted while the cascade ran")
        case .request(let error): diagnostics.error(error)
        case .execution(let error): diagnostics.error(error)
        case .errors(let errors): diagnostics.graphQLErrors(errors)
        }
        if deleted > 0 { diagnostics.error("stopped after deleting \(deleted) records under \(model) \(described)") }
    }
}

extension BulkWriteOperation.MatchingEvent {
    /// Writes what listing the `model` records to delete reported: why it stopped (through `diagnostics`), the keys a
    /// dry run would delete (on `output`, one JSON object a line; the count on `notes`, naming the option `dryRun`), or
    /// that none match.
    public func write(model: String, output: any OutputSink, notes: any OutputSink, diagnostics: any DiagnosticSink, dryRun: String) {
        switch self {
        case .listingStopped(let stop):
            switch stop {
            case .cancelled:
                diagnostics.error("interrupted while listing the records to delete; nothing was deleted")
                return
            case .graphQLErrors(let errors), .partial(let errors): diagnostics.graphQLErrors(errors)
            case .failed(let error): diagnostics.error(error)
            case .endOfList, .limitReached, .consumerFailed: return
            }
            diagnostics.error("listing the records to delete failed; nothing was deleted")
        case .wouldDelete(let keys):
            var writer = JSONWriter(style: .compact)
            for key in keys {
                writer.write(.object(key))
                writer.bytes.append(UInt8(ascii: "\n"))
            }
            output.write(bytes: writer.bytes)
            let noun = "\(model) record\(keys.count == 1 ? "" : "s")"
            notes.write("would delete \(keys.count) \(noun); nothing was deleted (\(dryRun))\n")
        case .nothingMatched: notes.write("no \(model) records match; nothing to delete\n")
        }
    }
}

extension CascadeDelete.Node {
    /// `delete Post id=p1 and the 4 records under it?`
    public var question: String {
        let others = count - 1
        return "delete \(model) \(key.keyText) and the \(others) record\(others == 1 ? "" : "s") under it?"
    }

    /// `4 records would be deleted with Post id=p1`: why a delete that nobody confirmed stops.
    public var unconfirmed: String {
        let others = count - 1
        return "\(others) record\(others == 1 ? "" : "s") would be deleted with \(model) \(key.keyText)"
    }
}

/// A delete of the records a filter matches, before anything is deleted: the listing (its pages counted on the
/// progress line), the question of how many to delete, and what the listing reports (``BulkWriteOperation/MatchingEvent``),
/// the progress line cleared before the question, before each event and at the end.
public struct MatchingDeleteReport {
    /// The question asked before the matching records are deleted: `delete 3 Post records?`.
    public struct Question: Sendable, Equatable {
        public let model: String
        public let count: Int

        private var noun: String { "\(count) \(model) record\(count == 1 ? "" : "s")" }
        /// `delete 3 Post records?`
        public var question: String { "delete \(noun)?" }
        /// `3 Post records match`: why a delete that nobody confirmed stops.
        public var unconfirmed: String { "\(noun) match" }
    }

    private let model: String
    private let progress: ProgressReporter?
    private let output: any OutputSink
    private let notes: any OutputSink
    private let diagnostics: any DiagnosticSink
    private let dryRun: String

    /// A report of the listing of `model`'s matching records: the keys of a dry run (`dryRun`: the option that asked for
    /// it) on `output`, the counts on `notes`, failures through `diagnostics`, the pages on `progress`.
    public init(
        model: String, progress: ProgressReporter?, output: any OutputSink, notes: any OutputSink, diagnostics: any DiagnosticSink,
        dryRun: String
    ) {
        (self.model, self.progress, self.output, self.notes, self.diagnostics, self.dryRun) = (model, progress, output, notes, diagnostics, dryRun)
    }

    /// Lists the keys of the records `requests` find through `context`'s client (``BulkWriteOperation/matching``),
    /// then asks `confirm` whether to delete them; `plansOnly` (a dry run) shows them instead.
    public func run(
        _ requests: ListRequests, in context: APIContext, plansOnly: Bool, confirm: (Question) -> ConfirmationAnswer
    ) -> BulkWriteOperation.Matching {
        var listing = context.client
        progress?.countPages(of: &listing)
        defer { progress?.clear() }
        return BulkWriteOperation.matching(
            requests, model: model, in: context, listingClient: listing, plansOnly: plansOnly,
            confirm: { count in
                progress?.clear()
                return confirm(Question(model: model, count: count))
            },
            events: { event in
                progress?.clear()
                event.write(model: model, output: output, notes: notes, diagnostics: diagnostics, dryRun: dryRun)
            })
    }
}
