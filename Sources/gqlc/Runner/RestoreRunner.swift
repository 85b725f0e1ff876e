import GQLCore

extension RestoreCommand {
    /// `gqlc restore`: the core's ``RestoreOperation`` checks the snapshot against the target's schema and restores it;
    /// this renders its notes and events.
    static func run(_ invocation: RestoreInvocation, with runner: inout ModelCommandRunner) -> ExitCode {
        let (directory, schema, globals) = (invocation.directory, runner.schema, runner.globals)
        var operation: RestoreOperation
        do throws(SnapshotError) {
            operation = try RestoreOperation(directory: directory, models: invocation.models, schema: schema)
        } catch {
            return runner.usage(error)
        }
        do {
            if let source = invocation.mapOwner { operation.options.ownerMap = try runner.ownerMapping(source) }
        } catch {
            return runner.usage(error)
        }
        operation.options.skipExisting = invocation.skipExisting
        operation.options.force = invocation.force
        operation.options.concurrency = invocation.concurrency
        let diagnostics = runner.diagnostics
        do throws(SnapshotError) {
            try operation.check { note in
                guard case .incomplete = note else { return diagnostics.error(note.description) }
                diagnostics.error("\(note); finish it with gqlc snapshot \(directory) \(SnapshotCommand.resume.flagName)")
            }
        } catch .doesNotFit {
            diagnostics.error("\(SnapshotError.doesNotFit) (\(RestoreCommand.force.flagName) restores what fits)")
            return .usage
        } catch {
            return runner.usage(error)
        }
        if globals.dryRun { return runner.writeLines(operation.planLines) }
        let report = runner.restoreReport()
        let outcome = operation.run(
            in: runner.jobContext, retry: RetryPolicy(maxRetries: globals.context.retries), cancellation: runner.session.cancellation,
            rejects: invocation.rejects, events: report.write)
        return runner.restoreStatus(outcome, report: report, finish: "restore")
    }
}
