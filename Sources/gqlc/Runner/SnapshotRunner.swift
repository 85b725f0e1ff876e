import GQLCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ModelCommandRunner {
    /// `gqlc snapshot`: the core's ``SnapshotJob`` does the work; this checks the arguments and renders its events.
    mutating func snapshot(_ invocation: SnapshotInvocation) -> ExitCode {
        let directory = invocation.directory
        let manifest: SnapshotManifest
        let models: [String]
        do throws(RunFailure) {
            models = try modelNames(invocation.models)
            let existing = try snapshotCall { () throws(SnapshotError) in try SnapshotManifest.read(directory: directory) }
            if invocation.resume {
                guard let existing else { throw RunFailure.usage(SnapshotError.nothingToResume(directory).description) }
                manifest = existing
            } else {
                if existing != nil {
                    throw RunFailure.usage(
                        "\(directory) already holds a snapshot (\(SnapshotManifest.fileName)); pass \(SnapshotCommand.resume.flagName) "
                            + "to finish it, or choose another directory")
                }
                try makeDirectory(directory)
                manifest = SnapshotManifest(
                    models: [], schemaSHA256: schemaDigest(), endpoint: endpointText(), takenAt: Timestamp.now().iso8601UTC)
            }
        } catch {
            return usage(error)
        }
        let resumedModels = invocation.models.isEmpty && invocation.resume ? manifest.models.map(\.name).filter { schema.models[$0] != nil } : models
        if globals.dryRun {
            session.console.output.write(resumedModels.joined(separator: "\n") + (resumedModels.isEmpty ? "" : "\n"))
            return .success
        }
        let baseClient: GraphQLClient
        do {
            baseClient = try execution.client()
        } catch {
            return usage(error)
        }
        _ = baseClient
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        let job = SnapshotJob(schema: schema, directory: directory, models: resumedModels, manifest: manifest)
        let execution = self.execution
        let errors = session.console.error
        let outcome = job.run(
            client: { model in
                var forModel = execution
                forModel.model = model
                do throws(RunFailure) {
                    return .success(try forModel.client())
                } catch {
                    return .failure(SnapshotSkip(error.message))
                }
            },
            events: { event in
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
            })
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
            let complete = outcome.manifest.models.filter { entry in entry.complete }
            let records = complete.reduce(0) { sum, entry in sum + entry.count }
            let skipped = outcome.manifest.models.filter { entry in entry.skipped != nil }.map { entry in entry.name }
            session.console.error.write(
                "snapshot \(directory): \(complete.count) model\(complete.count == 1 ? "" : "s"), \(records) records"
                    + (skipped.isEmpty ? "" : "; skipped: \(skipped.joined(separator: ", "))") + "\n")
        }
        return ExitCode(outcome.kind)
    }

    /// The models named (checked against the schema), or every model in name order.
    func modelNames(_ given: [String]) throws(RunFailure) -> [String] {
        for name in given where schema.models[name] == nil {
            throw RunFailure.usage(SnapshotError.unknownModel(name, known: schema.modelNames).description)
        }
        return given.isEmpty ? schema.modelNames : given
    }

    /// The SHA-256 of the schema file the run read, when there is one.
    func schemaDigest() -> String? {
        guard let path = execution.schemaFile?.path, let bytes = try? FileReader.bytes(atPath: path) else { return nil }
        return SHA256.hash(bytes).hexString
    }

    /// The endpoint URL, without user info.
    func endpointText() -> String? {
        (globals.endpoint?.value.absoluteString ?? execution.schemaFile?.service.endpoint).map(EndpointURL.maskingUserInfo)
    }

    func snapshotCall<T>(_ body: () throws(SnapshotError) -> T) throws(RunFailure) -> T {
        do {
            return try body()
        } catch {
            throw RunFailure.usage(error.description)
        }
    }

    /// `mkdir -p`.
    func makeDirectory(_ path: String) throws(RunFailure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw RunFailure.usage("cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}
