import GQLCore

extension ModelCommandRunner {
    /// `gqlc restore`: the core's ``RestoreOperation`` checks the snapshot against the target's schema and restores it;
    /// this renders its notes and events.
    mutating func restore(_ invocation: RestoreInvocation) -> ExitCode {
        let directory = invocation.directory
        var operation: RestoreOperation
        do throws(RunFailure) {
            operation = try snapshotCall { () throws(SnapshotError) in
                try RestoreOperation(directory: directory, models: invocation.models, schema: schema)
            }
            if let source = invocation.mapOwner { operation.options.ownerMap = try ownerMapping(source) }
        } catch {
            return usage(error)
        }
        operation.options.skipExisting = invocation.skipExisting
        operation.options.force = invocation.force
        operation.options.concurrency = invocation.concurrency
        let diagnostics = self.diagnostics
        do throws(SnapshotError) {
            try operation.check { note in
                guard case .incomplete = note else { return diagnostics.error(note.description) }
                diagnostics.error("\(note); finish it with gqlc snapshot \(directory) \(SnapshotCommand.resume.flagName)")
            }
        } catch .doesNotFit {
            diagnostics.error("\(SnapshotError.doesNotFit) (\(RestoreCommand.force.flagName) restores what fits)")
            return .usage
        } catch {
            return usage(error)
        }
        if globals.dryRun { return writeLines(operation.planLines) }
        do {
            _ = try execution.client()
        } catch {
            return usage(error)
        }
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        let outcome = operation.run(
            in: jobContext, retry: RetryPolicy(maxRetries: globals.retries), cancellation: session.cancellation,
            rejects: invocation.rejects, events: restoreEvents(progress: progress))
        progress?.clear()
        return restoreStatus(outcome, finish: "restore")
    }

    /// How a restore or copy ended: a file or client problem, an interruption (say how to finish), or the tally's status.
    func restoreStatus(_ outcome: RestoreOutcome, finish what: String) -> ExitCode {
        if let error = outcome.unavailable { return usage(RunFailure(error)) }
        if let error = outcome.fileError {
            diagnostics.error(error.description)
            return .usage
        }
        if outcome.stop == .cancelled {
            diagnostics.error("interrupted; re-run with \(RestoreCommand.skipExisting.flagName) to finish the \(what)")
            return .interrupted
        }
        return ExitCode(outcome.kind)
    }

    /// Renders the restore's events: failures on stderr, a summary line per model.
    func restoreEvents(progress: ProgressReporter?) -> @Sendable (RestoreEvent) -> Void {
        let (diagnostics, errors) = (self.diagnostics, session.console.error)
        return { event in
            switch event {
            case .modelStarted, .linksStarted: break
            case .pacing(let model, let notice):
                ProgressReporter.above(progress) { diagnostics.error("\(model): \(notice)") }
            case .sourceFailed(let model, let reason):
                ProgressReporter.above(progress) { diagnostics.error("listing \(model) failed: \(reason); its records after that were not copied") }
            case .item(let model, let result, let pass, let skipped):
                progress?.advance(items: 1)
                let describe = BulkMessages(model: model, operation: pass == .create ? .create : .update)
                let place = "\(model) " + (result.key.map(describe.key) ?? "line \(result.item.line)")
                switch result.outcome {
                case .failed(let failure) where !skipped:
                    let message = "\(place): \(pass == .create ? "" : "setting links: ")\(describe.message(failure))"
                    ProgressReporter.above(progress) { diagnostics.error(message) }
                case .interrupted:
                    ProgressReporter.above(progress) { diagnostics.error("\(place): interrupted in flight; it may have been applied") }
                case .done, .failed, .notSent: break
                }
            case .modelFinished(let model, let counts):
                ProgressReporter.above(progress) { errors.write(counts.summary(model: model) + "\n") }
            }
        }
    }

    /// `--map-owner FILE`: a JSON object of strings.
    func ownerMapping(_ source: InputSource) throws(RunFailure) -> [String: String] {
        let flag = RestoreCommand.mapOwner.flagName
        let value = try JSONArgument.read(source, option: flag, console: session.console)
        do throws(OwnerMapError) {
            return try RestoreOptions.ownerMap(value)
        } catch {
            throw RunFailure.usage("\(flag): \(error)")
        }
    }

    func snapshotCall<T>(_ body: () throws(SnapshotError) -> T) throws(RunFailure) -> T {
        do {
            return try body()
        } catch {
            throw RunFailure.usage(error.description)
        }
    }
}
