import GQLCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ModelCommandRunner {
    /// `gqlc restore`: checks the snapshot against the target's schema, then renders the core's ``RestoreJob``.
    mutating func restore(_ invocation: RestoreInvocation) -> ExitCode {
        let directory = invocation.directory
        let manifest: SnapshotManifest
        var models: [String] = []
        var ownerMap: [String: String] = [:]
        do throws(RunFailure) {
            guard let read = try snapshotCall({ () throws(SnapshotError) in try SnapshotManifest.read(directory: directory) }) else {
                throw RunFailure.usage("\(directory) holds no snapshot (no \(SnapshotManifest.fileName))")
            }
            manifest = read
            for name in invocation.models where manifest.entry(name) == nil {
                throw RunFailure.usage(
                    "the snapshot in \(directory) has no model '\(name)'\(Suggestions.didYouMean(name, in: manifest.models.map(\.name)))")
            }
            models = invocation.models.isEmpty ? manifest.models.map(\.name) : invocation.models
            if let source = invocation.mapOwner { ownerMap = try ownerMapping(source) }
        } catch {
            return usage(error)
        }
        var incomplete = false
        var complete: [String] = []
        for name in models {
            if manifest.entry(name)?.complete == true {
                complete.append(name)
                continue
            }
            diagnostics.error(
                "\(name) skipped: the snapshot's listing of it is incomplete; finish it with gqlc snapshot \(directory) "
                    + "\(SnapshotCommand.resume.flagName)")
            incomplete = true
        }
        models = complete
        // The schema fit, from each model's first record, before anything is sent.
        var differences: [SchemaFit.Difference] = []
        var samples: [String: JSONObject] = [:]
        for name in models {
            guard let entry = manifest.entry(name) else { continue }
            do {
                var reader = try RecordFileReader(path: directory + "/" + entry.file)
                samples[name] = try reader.next()?.record
                reader.close()
            } catch {
                return usage(RunFailure.usage(error.description))
            }
            differences += SchemaFit.differences(schema: schema, model: name, sample: samples[name])
        }
        if !differences.isEmpty {
            for difference in differences { diagnostics.error(difference.description) }
            if !invocation.force {
                diagnostics.error(
                    "the snapshot does not fit the target's schema; nothing was sent (\(RestoreCommand.force.flagName) restores what fits)")
                return .usage
            }
            let missing = Set(differences.filter { $0.field == nil }.map(\.model))
            models = models.filter { !missing.contains($0) }
        }
        noteServerSetFields(models, samples: samples)
        let plan = RestorePlan(schema: schema, models: models)
        if globals.dryRun {
            var text = ""
            for step in plan.steps {
                text += "\(step.model) \(manifest.entry(step.model)?.count ?? 0)"
                if !step.deferred.isEmpty { text += " (then \(step.deferred.joined(separator: ", ")) by update)" }
                text += "\n"
            }
            session.console.output.write(text)
            return .success
        }
        var clients: [String: GraphQLClient] = [:]
        let fallback: GraphQLClient
        do {
            fallback = try execution.client()
        } catch {
            return usage(error)
        }
        for step in plan.steps {
            var forModel = execution
            forModel.model = schema.models[step.model]
            do {
                clients[step.model] = try forModel.client()
            } catch {
                return usage(error)
            }
        }
        var rejects: RejectFiles?
        if let path = invocation.rejects {
            do {
                try makeDirectory(path)
            } catch {
                return usage(error)
            }
            rejects = RejectFiles(directory: path)
        }
        var options = RestoreOptions()
        options.skipExisting = invocation.skipExisting
        options.force = invocation.force
        options.ownerMap = ownerMap
        options.concurrency = invocation.concurrency
        let job = RestoreJob(
            schema: schema, directory: directory, manifest: manifest, plan: plan, options: options,
            retry: RetryPolicy(maxRetries: globals.retries), cancellation: session.cancellation)
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        let handler = Self.restoreEvents(
            diagnostics: diagnostics, errors: session.console.error, progress: progress, rejects: rejects,
            skipExisting: invocation.skipExisting)
        let outcome = job.run(client: { model in clients[model.name] ?? fallback }, events: handler)
        progress?.clear()
        rejects?.close()
        if let error = outcome.fileError {
            diagnostics.error(error.description)
            return .usage
        }
        if outcome.stop == .cancelled {
            diagnostics.error("interrupted; re-run with \(RestoreCommand.skipExisting.flagName) to finish the restore")
            return .interrupted
        }
        let status = ExitCode(outcome.kind)
        return status == .success && incomplete ? .partial : status
    }

    /// Renders the restore's events: failures on stderr (and to the rejects files), a summary line per model.
    static func restoreEvents(
        diagnostics: Diagnostics, errors: any TextSink, progress: ProgressReporter?, rejects: RejectFiles?, skipExisting: Bool
    ) -> @Sendable (RestoreEvent) -> Void {
        { event in
            switch event {
            case .modelStarted, .linksStarted: break
            case .pacing(let model, let notice):
                ProgressReporter.above(progress) { diagnostics.error("\(model): \(notice)") }
            case .sourceFailed(let model, let reason):
                ProgressReporter.above(progress) { diagnostics.error("listing \(model) failed: \(reason); its records after that were not copied") }
            case .item(let model, let result, let pass, _):
                progress?.advance(items: 1)
                let describe = BulkMessages(model: model, operation: pass == .create ? .create : .update)
                let what = pass == .create ? "" : "setting links: "
                let place = "\(model) " + (result.key.map(describe.key) ?? "line \(result.item.line)")
                switch result.outcome {
                case .done: return
                case .failed(.alreadyExists) where skipExisting: return
                case .failed(let failure):
                    let message = "\(place): \(what)\(describe.message(failure))"
                    ProgressReporter.above(progress) { diagnostics.error(message) }
                case .interrupted:
                    ProgressReporter.above(progress) { diagnostics.error("\(place): interrupted in flight; it may have been applied") }
                case .notSent: break
                }
                rejects?.write(result.item.rejectLine, model: model)
            case .modelFinished(let model, let counts):
                var line = "\(model): \(counts.restored) restored, \(counts.skipped) skipped, \(counts.failed) failed"
                if counts.unfinished > 0 { line += ", \(counts.unfinished) not finished" }
                if counts.sourceFailed { line += " (listing incomplete)" }
                if counts.linked + counts.linkFailed > 0 {
                    line += "; \(counts.linked) links set" + (counts.linkFailed > 0 ? ", \(counts.linkFailed) failed" : "")
                }
                ProgressReporter.above(progress) { errors.write(line + "\n") }
            }
        }
    }

    /// `--map-owner FILE`: a JSON object of strings.
    func ownerMapping(_ source: InputSource) throws(RunFailure) -> [String: String] {
        let value = try JSONArgument.read(source, option: RestoreCommand.mapOwner.flagName, console: session.console)
        guard case .object(let object) = value else {
            throw RunFailure.usage("\(RestoreCommand.mapOwner.flagName): expected a JSON object from old owner to new")
        }
        var map: [String: String] = [:]
        for member in object {
            guard let new = member.value.stringValue else {
                throw RunFailure.usage("\(RestoreCommand.mapOwner.flagName): the value of '\(member.key)' is not a string")
            }
            map[member.key] = new
        }
        return map
    }

    /// Says once what the server sets (createdAt, updatedAt) and which owner fields cannot be written.
    private func noteServerSetFields(_ models: [String], samples: [String: JSONObject]) {
        var readOnly: [String] = []
        var withReadOnly: [String] = []
        for name in models {
            guard let model = schema.models[name], let sample = samples[name] else { continue }
            let given = model.fields.filter { $0.isReadOnly && sample[$0.name].map { !$0.isNull } == true }.map(\.name)
            if !given.isEmpty { withReadOnly.append(name) }
            for field in given where !readOnly.contains(field) { readOnly.append(field) }
            for owner in RestoreJob.ownerFields(of: model).implicit {
                diagnostics.error(
                    "note: \(name)'s owner field '\(owner)' is not declared in the model, so its create input has no such field: "
                        + "restored records get the caller as owner (none with an API key or IAM); "
                        + "declare '\(owner)' in the schema to restore it, or restore those records signed in as their owner")
            }
        }
        guard !readOnly.isEmpty else { return }
        let (verb, pronoun) = readOnly.count == 1 ? ("is", "it") : ("are", "them")
        diagnostics.error(
            "note: \(readOnly.joined(separator: ", ")) \(verb) read-only (the server sets \(pronoun)); the snapshot's values are left out "
                + "(\(withReadOnly.joined(separator: ", ")))")
    }
}

/// One rejects file per model, opened on first use.
final class RejectFiles: Sendable {
    let directory: String
    private let files = Mutex<[String: FileDescriptorSink]>([:])

    init(directory: String) { self.directory = directory }

    func write(_ line: [UInt8], model: String) {
        files.withLock { files in
            if files[model] == nil {
                let descriptor = open(directory + "/" + model + ".ndjson", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { return }
                files[model] = FileDescriptorSink(descriptor: descriptor)
            }
            files[model]?.write(bytes: line)
        }
    }

    func close() {
        files.withLock { files in
            for sink in files.values { Glibc.close(sink.descriptor) }
            files = [:]
        }
    }
}
