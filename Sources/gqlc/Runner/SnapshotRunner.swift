import GQLCore

extension ModelCommandRunner {
    /// The run's whole-app job context (a client per model, resolved by the session's one resolver); nothing resolved yet.
    var jobContext: JobContext {
        let errors = session.console.error
        return JobContext(resolver: session.resolver, schema: schema, file: execution.schemaFile) { failure in
            errors.write("gqlc: \(RunFailure(failure).message)\n")
        }
    }

    /// A snapshot error's line; a directory holding one names the flag that finishes it.
    func usage(_ error: SnapshotError) -> ExitCode {
        guard case .notEmpty(let directory) = error else { return usage(RunFailure.usage(error.description)) }
        return usage(RunFailure.usage(
            "\(directory) already holds a snapshot (\(SnapshotManifest.fileName)); pass \(SnapshotCommand.resume.flagName) "
                + "to finish it, or choose another directory"))
    }

    /// `gqlc snapshot`: the core's ``SnapshotOperation`` does the work; this renders its events.
    mutating func snapshot(_ invocation: SnapshotInvocation) -> ExitCode {
        let (directory, context) = (invocation.directory, jobContext)
        let operation: SnapshotOperation
        do throws(SnapshotError) {
            operation = try SnapshotOperation(
                directory: directory, models: invocation.models, resume: invocation.resume, schema: schema,
                schemaSHA256: context.schemaSHA256, endpoint: context.endpoint, now: Timestamp.now())
        } catch {
            return usage(error)
        }
        if globals.dryRun { return writeLines(operation.models) }
        do {
            _ = try execution.client()
        } catch {
            return usage(error)
        }
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        let errors = session.console.error
        let outcome = operation.run(in: context, reason: { RunFailure($0).message }) { event in
            switch event {
            case .modelStarted: break
            case .page(_, let items, _): progress?.advance(items: items, pages: 1)
            case .modelFinished(let name, let count):
                ProgressReporter.above(progress) { errors.write("\(name): \(count) record\(count == 1 ? "" : "s")\n") }
            case .alreadyComplete(let name, let count):
                ProgressReporter.above(progress) { errors.write("\(name): \(count) records (complete already)\n") }
            case .modelSkipped(let name, let reason):
                ProgressReporter.above(progress) { errors.write("gqlc: \(name) skipped: \(reason)\n") }
            }
        }
        progress?.clear()
        let resumeHint = "gqlc snapshot \(directory) \(SnapshotCommand.resume.flagName) lists the models not yet complete"
        switch outcome.stop {
        case .cancelled(let model)?:
            diagnostics.error("interrupted while listing \(model); \(SnapshotManifest.fileName) says which models are complete: \(resumeHint)")
        case .failed(let model, let error)?:
            diagnostics.error(error)
            diagnostics.error("listing \(model) failed; \(resumeHint)")
        case .writeFailed(let error)?:
            diagnostics.error(error.description)
        case nil:
            let complete = outcome.manifest.models.filter(\.complete)
            let skipped = outcome.manifest.models.compactMap { $0.skipped == nil ? nil : $0.name }
            errors.write(
                "snapshot \(directory): \(complete.count) model\(complete.count == 1 ? "" : "s"), \(complete.reduce(0) { $0 + $1.count }) records"
                    + (skipped.isEmpty ? "" : "; skipped: \(skipped.joined(separator: ", "))") + "\n")
        }
        return ExitCode(outcome.kind)
    }

    /// Lines on standard output (a dry run's plan), nothing for none.
    func writeLines(_ lines: [String]) -> ExitCode {
        session.console.output.write(lines.map { $0 + "\n" }.joined())
        return .success
    }
}
