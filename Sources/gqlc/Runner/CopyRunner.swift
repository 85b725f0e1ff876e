import GQLCore

/// `gqlc copy`: two sessions (one per environment), the target's ``RestoreJob`` reading the source's listings.
struct CopyRunner {
    let context: RunContext
    var diagnostics: Diagnostics { context.diagnostics }

    func run(_ invocation: CopyInvocation) -> ExitCode {
        let globals = context.session.globals
        let (fromGlobals, toGlobals): (GlobalOptions, GlobalOptions)
        do {
            fromGlobals = try globals.selecting(environment: invocation.from, as: "copy")
            toGlobals = try globals.selecting(environment: invocation.to, as: "copy")
        } catch {
            diagnostics.error(error.message)
            return .usage
        }
        let session = context.session
        let fromSession = Session(globals: fromGlobals, console: session.console, cancellation: session.cancellation)
        let toSession = Session(globals: toGlobals, console: session.console, cancellation: session.cancellation)
        return ModelCommandRunner.prepare(RunContext(session: fromSession, diagnostics: diagnostics)) { source in
            ModelCommandRunner.prepare(RunContext(session: toSession, diagnostics: diagnostics)) { target in
                copy(invocation, source: source, target: &target)
            }
        }
    }

    private func copy(_ invocation: CopyInvocation, source: ModelCommandRunner, target: inout ModelCommandRunner) -> ExitCode {
        let models: [String]
        do {
            models = try source.modelNames(invocation.models).filter { source.schema.models[$0]?.operations.list != nil }
        } catch {
            return target.usage(error)
        }
        var differences: [SchemaFit.Difference] = []
        for name in models {
            guard let model = source.schema.models[name] else { continue }
            // The source's stored fields stand for its records.
            var sample = JSONObject()
            for field in model.fields where !field.isRelationship && !field.isReadOnly { sample[field.name] = .string("") }
            differences += SchemaFit.differences(schema: target.schema, model: name, sample: sample)
        }
        if !differences.isEmpty {
            for difference in differences { diagnostics.error(difference.description) }
            diagnostics.error("the models of '\(invocation.from)' do not fit those of '\(invocation.to)'; nothing was sent")
            return .usage
        }
        let plan = RestorePlan(schema: target.schema, models: models)
        var sourceClients: [String: GraphQLClient] = [:]
        for name in models {
            var execution = source.execution
            execution.model = source.schema.models[name]
            do {
                sourceClients[name] = try execution.client()
            } catch {
                return target.usage(error)
            }
        }
        if target.globals.dryRun { return printPlan(plan, source: source, clients: sourceClients) }
        if let status = WriteGuard.check(
            "copy records into '\(invocation.to)'", session: target.session, diagnostics: diagnostics)
        {
            return status
        }
        var ownerMap: [String: String] = [:]
        if let file = invocation.mapOwner {
            do {
                ownerMap = try target.ownerMapping(file)
            } catch {
                return target.usage(error)
            }
        }
        var clients: [String: GraphQLClient] = [:]
        for step in plan.steps {
            var execution = target.execution
            execution.model = target.schema.models[step.model]
            do {
                clients[step.model] = try execution.client()
            } catch {
                return target.usage(error)
            }
        }
        var options = RestoreOptions()
        options.skipExisting = invocation.skipExisting
        options.ownerMap = ownerMap
        options.concurrency = invocation.concurrency
        let manifest = SnapshotManifest(
            models: models.map { SnapshotManifest.Entry(name: $0, complete: true) }, schemaSHA256: nil, endpoint: nil, takenAt: "")
        var job = RestoreJob(
            schema: target.schema, directory: "", manifest: manifest, plan: plan, options: options,
            retry: RetryPolicy(maxRetries: target.globals.retries), cancellation: target.session.cancellation)
        let builder = source.builder
        let pageSize = Defaults.pageSize
        let listingClients = sourceClients
        job.openRecords = { model, _ throws(SnapshotError) in
            guard let client = listingClients[model] else { throw SnapshotError.unknownModel(model, known: []) }
            let requests: ListRequests
            do {
                requests = try builder.listPages(model, fields: .all)
            } catch {
                throw SnapshotError.unreadable("\(model): \(error)")
            }
            return ListingStream(pager: ListPager(
                client: client, connectionPath: [requests.rootField], pageSize: pageSize,
                makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) }))
        }
        let progress = ProgressReporter.make(console: target.session.console, globals: target.globals)
        let handler = ModelCommandRunner.restoreEvents(
            diagnostics: diagnostics, errors: target.session.console.error, progress: progress, rejects: nil,
            skipExisting: invocation.skipExisting)
        guard let fallback = clients.values.first else {
            diagnostics.error("no models to copy")
            return .success
        }
        let outcome = job.run(client: { model in clients[model.name] ?? fallback }, events: handler)
        progress?.clear()
        if let error = outcome.fileError {
            diagnostics.error(error.description)
            return .usage
        }
        if outcome.stop == .cancelled {
            diagnostics.error("interrupted; re-run with \(RestoreCommand.skipExisting.flagName) to finish the copy")
            return .interrupted
        }
        return ExitCode(outcome.kind)
    }

    /// `--dry-run`: the models in order with their record counts in the source (counted by listing keys only).
    private func printPlan(_ plan: RestorePlan, source: ModelCommandRunner, clients: [String: GraphQLClient]) -> ExitCode {
        var text = ""
        for step in plan.steps {
            guard let client = clients[step.model], let requests = try? source.builder.listPages(step.model, fields: .keysOnly) else {
                continue
            }
            let result = ListPager(
                client: client, connectionPath: [requests.rootField],
                makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) }
            ).run { _ in }
            guard case .endOfList = result.stop else {
                context.session.console.output.write(text)
                diagnostics.error("counting \(step.model) in the source failed")
                return result.exitStatus
            }
            text += "\(step.model) \(result.delivered)"
            if !step.deferred.isEmpty { text += " (then \(step.deferred.joined(separator: ", ")) by update)" }
            text += "\n"
        }
        context.session.console.output.write(text)
        return .success
    }
}
