import GQLCore

/// `gqlc diff`: each side a snapshot directory or a named environment's API; the core's ``DiffOperation`` compares.
struct DiffRunner {
    let context: RunContext
    var diagnostics: Diagnostics { context.diagnostics }

    func run(_ invocation: DiffInvocation) -> ExitCode {
        let sides: [(name: String, snapshot: DiffSide?, globals: GlobalOptions?)]
        do throws(UsageError) {
            sides = try [invocation.from, invocation.to].map { text throws(UsageError) in
                do throws(SnapshotError) {
                    if let snapshot = try DiffSide.snapshot(at: text) { return (text, snapshot, nil) }
                } catch {
                    throw UsageError(error.description)
                }
                return (text, nil, try context.session.globals.selecting(environment: text, as: "diff"))
            }
        } catch {
            diagnostics.error(error.message)
            return .usage
        }
        // An environment side's schema is the one compared by (the first's); with two snapshots, the run's own.
        var runners: [ModelCommandRunner] = []
        func withSides(_ index: Int) -> ExitCode {
            guard index == sides.count else {
                guard let globals = sides[index].globals else { return withSides(index + 1) }
                let session = Session(globals: globals, console: context.session.console, cancellation: context.session.cancellation)
                return ModelCommandRunner.prepare(RunContext(session: session, diagnostics: diagnostics)) { runner in
                    runners.append(runner)
                    return withSides(index + 1)
                }
            }
            var apis = runners.makeIterator()
            let resolved = sides.map { side in side.snapshot ?? .api(apis.next()?.jobContext ?? runners[0].jobContext) }
            if let runner = runners.first { return compare(invocation, resolved[0], resolved[1], schema: runner.schema) }
            return ModelCommandRunner.prepare(context) { runner in compare(invocation, resolved[0], resolved[1], schema: runner.schema) }
        }
        return withSides(0)
    }

    /// `--from DIR` or `--to ENV`: how a message names a side.
    private func flag(_ toSide: Bool) -> String { toSide ? DiffCommand.to.flagName : DiffCommand.from.flagName }

    private func why(_ reason: DiffUnavailability, toSide: Bool) -> String {
        switch reason {
        case .notInSnapshot(let directory): return "the snapshot \(directory) (\(flag(toSide))) does not hold it"
        case .incompleteInSnapshot(let directory, let skipped):
            let why = skipped.map { "skipped (\($0))" } ?? "incomplete (finish it with gqlc snapshot \(directory) \(SnapshotCommand.resume.flagName))"
            return "the snapshot \(directory) (\(flag(toSide))) has it \(why)"
        case .unlistable(let reason): return "\(reason) (\(flag(toSide)))"
        }
    }

    private func compare(_ invocation: DiffInvocation, _ from: DiffSide, _ to: DiffSide, schema: ModelSchema) -> ExitCode {
        var operation: DiffOperation
        do throws(DiffCheckError) {
            operation = try DiffOperation(models: invocation.models, schema: schema, from: from, to: to) { name, reason, toSide in
                diagnostics.error("note: \(name) not compared: \(why(reason, toSide: toSide))")
            }
        } catch {
            switch error {
            case .unknownModel(let error): diagnostics.error(error.description)
            case .unavailable(let name, let reason, let toSide): diagnostics.error("\(name) cannot be compared: \(why(reason, toSide: toSide))")
            }
            return .usage
        }
        operation.ignore = Set(invocation.ignore)
        operation.fields = invocation.fields
        let (console, globals) = (context.session.console, context.session.globals)
        guard globals.output != .ndjson else {
            return status(invocation, operation.run(reason: { RunFailure($0).message }) { difference in
                console.output.write(difference.json.serialized(.compact) + "\n")
            } finished: { name, counts in
                console.error.write("\(name): \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed\n")
            })
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
        let outcome = operation.run(reason: { RunFailure($0).message }) { difference in
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
        let status = status(invocation, outcome)
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

    /// 0 when the sides are the same, 8 when they differ; a side that cannot be read: the status its failure has
    /// elsewhere (5 HTTP or auth, 6 network, 1 GraphQL errors, 130 interrupted), with a line naming the side.
    private func status(_ invocation: DiffInvocation, _ outcome: DiffOutcome) -> ExitCode {
        guard let (name, error) = outcome.failure else { return outcome.differ ? .differ : .success }
        let side = error.toSide.map { isTo in " (\(flag(isTo)) \(isTo ? invocation.to : invocation.from))" } ?? ""
        diagnostics.error("could not compare \(name)\(side): \(error.description)")
        return ExitCode(error.kind)
    }
}
