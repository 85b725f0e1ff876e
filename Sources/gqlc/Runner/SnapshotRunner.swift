import GQLCore

extension ModelCommandRunner {
    /// The run's whole-app job context (a client per model, resolved by the session's one resolver); nothing resolved yet.
    var jobContext: JobContext { session.jobContext(schema: schema, file: execution.schemaFile) }

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
            if case .page(_, let items, _) = event { progress?.advance(items: items, pages: 1) }
            guard let line = event.line else { return }
            ProgressReporter.above(progress) { errors.write((line.isDiagnostic ? "gqlc: " : "") + line.text + "\n") }
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
            errors.write(outcome.summary(directory: directory) + "\n")
        }
        return ExitCode(outcome.kind)
    }

    /// Lines on standard output (a dry run's plan), nothing for none.
    func writeLines(_ lines: [String]) -> ExitCode {
        session.console.output.write(lines.map { $0 + "\n" }.joined())
        return .success
    }
}

extension Session {
    /// A whole-app job's context over `schema` (a client per model, resolved by this session's one resolver).
    func jobContext(schema: ModelSchema, file: SchemaFile?) -> JobContext {
        let errors = console.error
        return JobContext(resolver: resolver, schema: schema, file: file) { failure in errors.write("gqlc: \(RunFailure(failure).message)\n") }
    }
}
