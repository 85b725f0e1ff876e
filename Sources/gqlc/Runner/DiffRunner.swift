import GQLCore

/// `gqlc diff`: each side a snapshot directory or a named environment's API; the core's ``RecordDiff`` compares.
struct DiffRunner {
    let context: RunContext
    var diagnostics: Diagnostics { context.diagnostics }

    /// One side of the comparison.
    enum Side {
        case snapshot(String, SnapshotManifest)
        case environment(GlobalOptions)
    }

    func run(_ invocation: DiffInvocation) -> ExitCode {
        let from: Side
        let to: Side
        do throws(UsageError) {
            from = try side(invocation.from)
            to = try side(invocation.to)
        } catch {
            diagnostics.error(error.message)
            return .usage
        }
        return withSide(from) { fromRunner in
            withSide(to) { toRunner in
                if let runner = fromRunner ?? toRunner {
                    return compare(invocation, from: from, to: to, fromRunner: fromRunner, toRunner: toRunner, schema: runner.schema)
                }
                return ModelCommandRunner.prepare(context) { runner in
                    compare(invocation, from: from, to: to, fromRunner: nil, toRunner: nil, schema: runner.schema)
                }
            }
        }
    }

    private func side(_ text: String) throws(UsageError) -> Side {
        do {
            if let manifest = try SnapshotManifest.read(directory: text) { return .snapshot(text, manifest) }
        } catch {
            throw UsageError(error.description)
        }
        return .environment(try context.session.globals.selecting(environment: text, as: "diff"))
    }

    private func withSide(_ side: Side, _ body: (ModelCommandRunner?) -> ExitCode) -> ExitCode {
        guard case .environment(let globals) = side else { return body(nil) }
        let session = Session(globals: globals, console: context.session.console, cancellation: context.session.cancellation)
        return ModelCommandRunner.prepare(RunContext(session: session, diagnostics: diagnostics)) { runner in body(runner) }
    }

    private func compare(
        _ invocation: DiffInvocation, from: Side, to: Side, fromRunner: ModelCommandRunner?, toRunner: ModelCommandRunner?,
        schema: ModelSchema
    ) -> ExitCode {
        for name in invocation.models where schema.models[name] == nil {
            diagnostics.error(SnapshotError.unknownModel(name, known: schema.modelNames).description)
            return .usage
        }
        var models: [String] = []
        for name in invocation.models.isEmpty ? schema.modelNames : invocation.models {
            let flags = [DiffCommand.from.flagName, DiffCommand.to.flagName]
            let reasons = zip([from, to], flags).compactMap { side, flag in unavailable(name, on: side, flag: flag, schema: schema) }
            guard let reason = reasons.first else {
                models.append(name)
                continue
            }
            if !invocation.models.isEmpty {
                diagnostics.error("\(name) cannot be compared: \(reason.text)")
                return .usage
            }
            // Every model: one a snapshot has not finished is said, not silently left out; one it never held is not.
            if reason.incomplete { diagnostics.error("note: \(name) not compared: \(reason.text)") }
        }
        let console = context.session.console
        let globals = context.session.globals
        guard globals.output != .ndjson else {
            return compareModels(models, invocation, schema: schema, from: from, to: to, fromRunner: fromRunner, toRunner: toRunner) { difference in
                console.output.write(difference.json.serialized(.compact) + "\n")
            } finished: { name, counts in
                console.error.write("\(name): \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed\n")
            }
        }
        // Text for people: the summary first, so the differences wait in a temporary file (memory stays flat).
        let text = DiffText(palette: Palette.isOn(globals, console: console) ? .standard : nil)
        let spool: SpoolFile
        do {
            spool = try SpoolFile(directory: SpoolFile.directory(environment: ProcessEnvironment.current()))
        } catch {
            diagnostics.error(error.description)
            return .writeFailed
        }
        var summary = ""
        var spoolFailure: SpoolError?
        var complete = 0  // the spooled bytes of the models compared to the end
        let status = compareModels(models, invocation, schema: schema, from: from, to: to, fromRunner: fromRunner, toRunner: toRunner) { difference in
            do throws(SpoolError) { try spool.append(text.line(difference)) } catch { spoolFailure = spoolFailure ?? error }
        } finished: { name, counts in
            summary += text.summary(model: name, counts)
            complete = spool.count
        }
        console.output.write(summary)
        if let spoolFailure {
            diagnostics.error(spoolFailure.description)
            return .writeFailed
        }
        guard complete > 0 else { return status }
        console.output.write("\n")
        var left = complete
        do {
            try spool.replay { chunk in
                let part = Array(chunk.prefix(left))
                left -= part.count
                return console.output.write(bytes: part) && left > 0
            }
        } catch {
            diagnostics.error(error.description)
            return .writeFailed
        }
        return status
    }

    /// Compares each model in turn: `emit` gets each difference, `finished` each model's counts once it is compared to
    /// the end. 0 when the sides are the same, 8 when they differ; a side that cannot be read ends the comparison with
    /// the status its failure has elsewhere (5 HTTP or auth, 6 network, 1 GraphQL errors, 130 interrupted).
    private func compareModels(
        _ models: [String], _ invocation: DiffInvocation, schema: ModelSchema, from: Side, to: Side,
        fromRunner: ModelCommandRunner?, toRunner: ModelCommandRunner?,
        emit: (RecordDifference) -> Void, finished: (String, DiffCounts) -> Void
    ) -> ExitCode {
        var status = ExitCode.success
        for name in models {
            guard let model = schema.models[name] else { continue }
            let open = [false: opener(from, runner: fromRunner, model: name), true: opener(to, runner: toRunner, model: name)]
            let diff = RecordDiff(model: model, ignore: Set(invocation.ignore), fields: invocation.fields)
            let counts: DiffCounts
            do {
                counts = try diff.run(
                    open: { isTo throws(SnapshotError) in
                        guard let open = open[isTo] else { throw SnapshotError.unreadable("no side") }
                        return try open()
                    },
                    emit: emit)
            } catch {
                let side = error.toSide.map { isTo in " (\(isTo ? DiffCommand.to.flagName : DiffCommand.from.flagName) \(isTo ? invocation.to : invocation.from))" } ?? ""
                diagnostics.error("could not compare \(name)\(side): \(error.description)")
                return ExitCode(error.kind)
            }
            if !counts.same { status = .differ }
            finished(name, counts)
        }
        return status
    }

    /// Why `model` cannot be read on `side`, or nil; `incomplete` for a snapshot that lists it but did not finish it.
    private func unavailable(_ model: String, on side: Side, flag: String, schema: ModelSchema) -> (text: String, incomplete: Bool)? {
        switch side {
        case .snapshot(let directory, let manifest):
            guard let entry = manifest.entry(model) else { return ("the snapshot \(directory) (\(flag)) does not hold it", false) }
            if entry.complete { return nil }
            let why = entry.skipped.map { "skipped (\($0))" } ?? "incomplete (finish it with gqlc snapshot \(directory) \(SnapshotCommand.resume.flagName))"
            return ("the snapshot \(directory) (\(flag)) has it \(why)", true)
        case .environment:
            guard let reason = schema.models[model].flatMap(SnapshotJob.unlistable) else { return nil }
            return ("\(reason) (\(flag))", false)
        }
    }

    /// Opens a model's records on one side: its snapshot file, or a listing of its environment's API.
    private func opener(_ side: Side, runner: ModelCommandRunner?, model: String) -> () throws(SnapshotError) -> any RecordStream {
        switch side {
        case .snapshot(let directory, let manifest):
            let file = manifest.entry(model)?.file ?? model + ".ndjson"
            return { () throws(SnapshotError) in try RecordFileReader(path: directory + "/" + file) }
        case .environment:
            return { () throws(SnapshotError) in
                guard let runner else { throw SnapshotError.unreadable("no session") }
                var execution = runner.execution
                execution.model = runner.schema.models[model]
                let client: GraphQLClient
                let requests: ListRequests
                do {
                    client = try execution.client()
                    requests = try runner.builder.listPages(model, fields: .all)
                } catch {
                    throw SnapshotError.unreadable("\(error)")
                }
                return ListingStream(pager: ListPager(
                    client: client, connectionPath: [requests.rootField],
                    makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) }))
            }
        }
    }
}
