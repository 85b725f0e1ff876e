import GQLCore

/// A bulk job's words on the command line: the options and commands that the core's ``BulkWriteReport`` leaves to the
/// front end, said in this one place.
struct CommandLineBulkPhrasing: BulkWritePhrasing {
    var input: String { BulkOptions.input.flagName }
    var rejects: String { BulkOptions.rejects.flagName }

    func showCascade(model: String) -> String {
        "gqlc delete \(model) \(SharedOptions.id.flagName) ID \(DeleteCommand.cascade.flagName) "
            + "\(GlobalOptions.dryRunOption.flagName) shows what one record has"
    }

    func cascade(model: String) -> String { "delete \(model) \(DeleteCommand.cascade.flagName) deletes a record with them" }

    func check(model: String, key: JSONObject) -> String? { UncertainWrites.check(model: model, key: key) }

    func message(_ error: ExecutionError) -> String { error.commandLineMessage }

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

extension BulkItemWords {
    /// The words of `model`'s `operation` items, phrased for the command line.
    init(model: String, operation: BulkOperation) { self.init(model: model, operation: operation, phrasing: CommandLineBulkPhrasing()) }
}

/// Renders a ``BulkWriteOperation``'s events on the console through the core's ``BulkWriteReport``;
/// ``finish(_:)`` maps how the job ended, and what could not be written, to an exit code.
struct BulkRenderer {
    let report: BulkWriteReport
    let output: any TextSink

    /// Renders one event; false when its record or rejected line could not be written.
    func render(_ event: BulkWriteEvent) -> Bool { report.write(event) }

    /// After the job: what could not be written, the summary line (not for a dry run), and the exit code.
    func finish(_ kind: ResultKind) -> ExitCode {
        let failure = output.failure
        let why: String? = switch failure {
        case .closedPipe?: "standard output was closed"
        case .failed(let reason)?: "cannot write standard output: \(reason)"
        case nil: nil
        }
        let ending = report.finish(outputFailure: why)
        if ending.rejectsFailed { return .writeFailed }
        switch failure {
        case .closedPipe?: return .closedPipe
        case .failed?: return .writeFailed
        case nil: return ending.halted ? .writeFailed : ExitCode(kind)
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
