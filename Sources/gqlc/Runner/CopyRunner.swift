import GQLCore

/// `gqlc copy`: two sessions (one per environment); the core's ``CopyOperation`` lists the source into the target.
struct CopyRunner {
    let context: RunContext
    var diagnostics: Diagnostics { context.diagnostics }

    func run(_ invocation: CopyInvocation) -> ExitCode {
        let (globals, session) = (context.session.globals, context.session)
        let (fromGlobals, toGlobals): (GlobalOptions, GlobalOptions)
        do {
            fromGlobals = try globals.selecting(environment: invocation.from, as: "copy")
            toGlobals = try globals.selecting(environment: invocation.to, as: "copy")
        } catch {
            diagnostics.error(error.message)
            return .usage
        }
        let fromSession = Session(globals: fromGlobals, console: session.console, cancellation: session.cancellation)
        let toSession = Session(globals: toGlobals, console: session.console, cancellation: session.cancellation)
        return ModelCommandRunner.prepare(RunContext(session: fromSession, diagnostics: diagnostics)) { source in
            ModelCommandRunner.prepare(RunContext(session: toSession, diagnostics: diagnostics)) { target in
                copy(invocation, source: source, target: &target)
            }
        }
    }

    private func copy(_ invocation: CopyInvocation, source: ModelCommandRunner, target: inout ModelCommandRunner) -> ExitCode {
        var operation: CopyOperation
        do throws(SnapshotError) {
            operation = try CopyOperation(models: invocation.models, source: source.schema, target: target.schema) { difference in
                diagnostics.error(difference.description)
            }
        } catch .doesNotFit {
            diagnostics.error("the models of '\(invocation.from)' do not fit those of '\(invocation.to)'; nothing was sent")
            return .usage
        } catch {
            return target.usage(error)
        }
        let sourceContext = source.jobContext
        do throws(ContextError) {
            try operation.resolveSource(sourceContext)
        } catch {
            return target.usage(RunFailure(error))
        }
        if target.globals.dryRun {
            return ExitCode(operation.reportCount(sourceContext, output: target.session.console.output, say: diagnostics.error))
        }
        if let status = WriteGuard.check("copy records into '\(invocation.to)'", session: target.session, diagnostics: diagnostics) {
            return status
        }
        do {
            if let file = invocation.mapOwner { operation.options.ownerMap = try target.ownerMapping(file) }
        } catch {
            return target.usage(error)
        }
        operation.options.skipExisting = invocation.skipExisting
        operation.options.concurrency = invocation.concurrency
        guard !operation.plan.steps.isEmpty else {
            diagnostics.error("no models to copy")
            return .success
        }
        let report = target.restoreReport()
        let outcome = operation.run(
            from: sourceContext, into: target.jobContext, retry: RetryPolicy(maxRetries: target.globals.context.retries),
            cancellation: target.session.cancellation, events: report.write)
        return target.restoreStatus(outcome, report: report, finish: "copy")
    }
}
