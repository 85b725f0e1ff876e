import GQLCore
import Synchronization

/// Renders a ``BulkWriteOperation``'s events: records on stdout (above the progress line when they share the
/// terminal), each failure as one line on stderr, its input line to `--rejects`, the closing reports and the
/// summary; ``finish(_:)`` maps how the job ended, and what could not be written, to an exit code.
final class BulkRenderer: Sendable {
    private let console: Console
    private let diagnostics: Diagnostics
    private let records: BulkRecordPrinter
    private let progress: ProgressReporter?
    private let rejects: RejectsFile?
    private let describe: BulkMessages
    private let inputName: String
    private let dryRun: Bool
    /// A dry run's request bodies not yet written, and how the job ended.
    private let state = Mutex<(bodies: JSONWriter, counts: BulkCounts, stop: BulkRunner.Stop)>(
        (JSONWriter(style: .compact), BulkCounts(), .endOfInput))

    init(
        console: Console, diagnostics: Diagnostics, records: BulkRecordPrinter, progress: ProgressReporter?, rejects: RejectsFile?,
        describe: BulkMessages, inputName: String, dryRun: Bool
    ) {
        (self.console, self.diagnostics, self.records, self.progress) = (console, diagnostics, records, progress)
        (self.rejects, self.describe, self.inputName, self.dryRun) = (rejects, describe, inputName, dryRun)
    }

    /// Renders one event; false when its record or rejected line could not be written.
    func render(_ event: BulkWriteEvent) -> Bool {
        switch event {
        case .progress(let counts): progress?.update(items: counts.total, failed: counts.failed)
        case .pacing(let notice):
            // Said even off a terminal: a job that slows itself down says why.
            ProgressReporter.above(progress) { diagnostics.error(notice.description) }
        case .item(let result, let firstTime): return item(result, firstTime: firstTime)
        case .jobEnded(let counts, let stop):
            if console.output.failure == nil { records.finish() }
            progress?.clear()
            state.withLock { ($0.counts, $0.stop) = (counts, stop) }
        case .repeatedFailure(let repeated): diagnostics.error(repeated.line(inputName: inputName))
        case .inputFailed(let error, let itemsBeforeDone):
            guard itemsBeforeDone else {
                flush()
                diagnostics.error("\(BulkOptions.input.flagName): \(error.description)")
                break
            }
            // A file error names the file itself.
            let what = if case .file(let fileError) = error { fileError.reason } else { error.description }
            diagnostics.error("\(BulkOptions.input.flagName): \(inputName): \(what); the records before it were processed")
        case .orphansNotChecked(let count, let limit):
            let model = describe.model
            diagnostics.error(
                "warning: records that pointed at the \(count) deleted \(model) records were not checked (more than "
                    + "\(limit): one query per record and association); gqlc delete \(model) \(SharedOptions.id.flagName) ID "
                    + "\(DeleteCommand.cascade.flagName) \(GlobalOptions.dryRunOption.flagName) shows what one record has")
        case .orphansLeft(let orphans):
            let model = describe.model
            diagnostics.error(
                "warning: \(orphans.model) records (\(model).\(orphans.association)) are left pointing at \(orphans.records) "
                    + "of the \(orphans.deleted) deleted \(model) records; delete \(model) \(DeleteCommand.cascade.flagName) deletes a record with them")
        case .wouldSend(let request):
            let full: [UInt8]? = state.withLock { state in
                state.bodies.write(request.body)
                state.bodies.bytes.append(UInt8(ascii: "\n"))
                guard state.bodies.bytes.count >= 1 << 16 else { return nil }
                defer { state.bodies.bytes.removeAll(keepingCapacity: true) }
                return state.bodies.bytes
            }
            if let full { console.output.write(bytes: full) }
        }
        return true
    }

    private func item(_ result: BulkItemResult, firstTime: Bool) -> Bool {
        switch result.outcome {
        case .done(let record):
            guard console.output.failure == nil else { return true }
            var printed = false
            let sharesTerminal = progress != nil && console.outputIsTerminal
            ProgressReporter.above(sharesTerminal ? progress : nil) { printed = records.write(record) }
            return printed
        case .failed(.invalid) where !firstTime:
            break  // said once, and counted for the end
        case .failed(let failure):
            let message = "\(describe.place(result, inputName)): \(describe.message(failure))"
            ProgressReporter.above(progress) { diagnostics.error(message) }
        case .interrupted:
            let message = "\(describe.place(result, inputName)): interrupted in flight; it may have been applied"
                + (result.key.map { " (key \(describe.key($0)))" } ?? "")
            ProgressReporter.above(progress) { diagnostics.error(message) }
        case .notSent:
            break
        }
        guard let rejects, !rejects.write(result.rejectLine(describe.operation), inputLine: result.item.line) else { return true }
        if dryRun, let message = rejects.failureMessage {
            // A dry run stops at once, its unwritten bodies dropped.
            state.withLock { $0.bodies.bytes.removeAll() }
            diagnostics.error(message)
        }
        return false
    }

    private func flush() {
        let bytes = state.withLock { state in
            defer { state.bodies.bytes.removeAll(keepingCapacity: true) }
            return state.bodies.bytes
        }
        if !bytes.isEmpty { console.output.write(bytes: bytes) }
    }

    /// After the job: what could not be written, the summary line (not for a dry run), and the exit code.
    func finish(_ kind: ResultKind) -> ExitCode {
        if dryRun {
            flush()
            return rejects?.failed == true ? .writeFailed : ExitCode(kind)
        }
        let (counts, stop) = state.withLock { ($0.counts, $0.stop) }
        let output = console.output
        let rejectsFailure = rejects?.failureMessage
        if let rejectsFailure { diagnostics.error(rejectsFailure) }
        if let failure = output.failure {
            let why = switch failure {
            case .closedPipe: "standard output was closed"
            case .failed(let reason): "cannot write standard output: \(reason)"
            }
            let rest = rejects == nil || rejectsFailure != nil ? "" : "; the records not sent are in \(rejects?.path ?? "")"
            diagnostics.error(why + "; stopped starting records" + rest)
        }
        console.error.write(counts.summary(describe.operation) + "\n")
        if rejectsFailure != nil { return .writeFailed }
        switch output.failure {
        case .closedPipe?: return .closedPipe
        case .failed?: return .writeFailed
        case nil: return stop == .halted ? .writeFailed : ExitCode(kind)
        }
    }
}

extension BulkRenderer {
    /// What listing the records to delete reported: why it stopped, the keys a dry run would delete, or that none match.
    static func render(_ event: BulkWriteOperation.MatchingEvent, model: String, console: Console, diagnostics: Diagnostics) {
        switch event {
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
            console.output.write(bytes: writer.bytes)
            let noun = "\(model) record\(keys.count == 1 ? "" : "s")"
            console.error.write("would delete \(keys.count) \(noun); nothing was deleted (\(GlobalOptions.dryRunOption.flagName))\n")
        case .nothingMatched: console.error.write("no \(model) records match; nothing to delete\n")
        }
    }
}

/// The words of a bulk job's messages.
struct BulkMessages: Sendable {
    let model: String
    let operation: BulkOperation

    /// `posts.ndjson:12` (an input item), or `Post id=p1` (a record a listing found).
    func place(_ result: BulkItemResult, _ inputName: String) -> String {
        if result.item.line > 0 { return "\(inputName):\(result.item.line)" }
        return "\(model) " + (result.key.map(key) ?? "record \(result.item.index + 1)")
    }

    /// `id=p1`, `sku=A-1, warehouseId=w1`.
    func key(_ key: JSONObject) -> String { key.keyText }

    func message(_ failure: BulkItemFailure) -> String {
        switch failure {
        case .invalid(let message): return message
        case .execution(let error): return error.commandLineMessage
        case .errors(let errors): return errors.map(\.description).joined(separator: "; ")
        case .alreadyExists(let key, let afterRetry):
            let exists = "\(model) already has a record with key \(self.key(key))"
            return afterRetry ? exists + "; " + UncertainWrites.ownAttemptMayBeWhy(.create, model: model, key: key) : exists
        case .refusedAfterRetry(let key):
            return "the \(operation.rawValue) of \(model) \(self.key(key)) was refused; "
                + UncertainWrites.ownAttemptMayBeWhy(operation, model: model, key: key)
        case .notFound(let key): return "no \(model) with key \(self.key(key))"
        }
    }

    /// An item's problem as the command line says it (the oversized one names `--rejects`).
    static func phrase(_ problem: BulkItemProblem) -> String {
        switch problem {
        case .oversized:
            "larger than \(BulkInputItem.maximumSize >> 20) MiB, the most gqlc reads as one record; "
                + "it was read past and not sent (nor copied to \(BulkOptions.rejects.flagName))"
        case .invalidJSON: problem.description
        case .build(let error): error.commandLineMessage
        }
    }
}

/// Renders a ``CascadeDeleteOperation``'s events: the plan as a tree (dry run), the progress line (started with the
/// first delete, after any question), the record, and why it stopped.
final class CascadeRenderer {
    let console: Console
    let diagnostics: Diagnostics
    let printer: ResultPrinter
    let globals: GlobalOptions
    let model: String
    let key: JSONObject
    private var progress: ProgressReporter?

    init(console: Console, diagnostics: Diagnostics, printer: ResultPrinter, globals: GlobalOptions, model: String, key: JSONObject) {
        (self.console, self.diagnostics, self.printer, self.globals, self.model, self.key) = (console, diagnostics, printer, globals, model, key)
    }

    func render(_ event: CascadeDeleteEvent) {
        switch event {
        case .planned(let plan):
            guard globals.dryRun else { return }
            console.output.write(plan.outline.joined(separator: "\n") + "\n")
            console.error.write(
                "would delete \(plan.count) record\(plan.count == 1 ? "" : "s"); nothing was deleted (\(GlobalOptions.dryRunOption.flagName))\n")
        case .progress(let deleted):
            if deleted == 1 { progress = ProgressReporter.make(console: console, globals: globals) }
            progress?.update(items: deleted, failed: 0)
        case .deletionsEnded: progress?.clear()
        case .result(let root): printer.print(root)
        case .failed(let failure, let deleted): report(failure, deleted: deleted)
        case .deleted(let count, let byModel):
            console.error.write("deleted \(count) records: \(byModel.map { "\($0.count) \($0.model)" }.joined(separator: ", "))\n")
        }
    }

    private func report(_ failure: CascadeDelete.Failure, deleted: Int) {
        let described = key.keyText
        switch failure {
        case .notFound: diagnostics.error("no \(model) with key \(described)")
        case .gone(let goneModel, let goneKey):
            diagnostics.error("no \(goneModel) with key \(goneKey.keyText) any more: it was deleted while the cascade ran")
        case .request(let error): diagnostics.error(error.commandLineMessage)
        case .execution(let error): diagnostics.error(error)
        case .errors(let errors): diagnostics.graphQLErrors(errors)
        }
        if deleted > 0 { diagnostics.error("stopped after deleting \(deleted) records under \(model) \(described)") }
    }
}
