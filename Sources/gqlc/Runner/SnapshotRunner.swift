import GQLCore

extension SnapshotCommand {
    /// `gqlc snapshot`: the core's ``SnapshotOperation`` does the work; this renders its events.
    static func run(_ invocation: SnapshotInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        let (directory, context, globals) = (invocation.directory, runner.jobContext, runner.globals)
        let operation: SnapshotOperation
        do throws(SnapshotError) {
            operation = try SnapshotOperation(
                directory: directory, models: invocation.models, resume: invocation.resume, schema: runner.schema,
                schemaSHA256: context.schemaSHA256, endpoint: context.endpoint, now: Timestamp.now())
        } catch {
            return runner.usage(error)
        }
        if globals.dryRun { return runner.writeLines(operation.models) }
        let (console, diagnostics) = (runner.session.console, runner.diagnostics)
        let progress = ProgressReporter.make(console: console, globals: globals)
        let errors = console.error
        let outcome = operation.run(in: context, reason: { RunFailure($0).message }) { event in
            event.write(progress: progress, notes: errors, say: diagnostics.error)
        }
        progress?.clear()
        if case .unavailable(let error)? = outcome.stop { return runner.usage(RunFailure(error)) }
        outcome.report(
            directory: directory, resume: "gqlc snapshot \(directory) \(SnapshotCommand.resume.flagName) lists the models not yet complete",
            notes: errors, diagnostics: diagnostics)
        return ExitCode(outcome.kind)
    }
}
