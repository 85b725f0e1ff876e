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
        var resolved: [DiffSide] = []
        var schema: ModelSchema?
        do throws(RunFailure) {
            for side in sides {
                guard let globals = side.globals else {
                    resolved += side.snapshot.map { [$0] } ?? []
                    continue
                }
                let session = Session(globals: globals, console: context.session.console, cancellation: context.session.cancellation)
                let (file, models) = try session.models()
                resolved.append(.api(session.jobContext(schema: models, file: file)))
                schema = schema ?? models
            }
            if schema == nil { schema = try context.session.models().schema }
            return compare(invocation, resolved[0], resolved[1], schema: schema ?? ModelSchema(models: [:]))
        } catch {
            diagnostics.failure(error)
            return error.status
        }
    }

    /// `--from DIR` or `--to ENV`: how a message names a side.
    private func flag(_ toSide: Bool) -> String { toSide ? DiffCommand.to.flagName : DiffCommand.from.flagName }

    private func why(_ reason: DiffUnavailability, toSide: Bool) -> String {
        reason.reason(side: flag(toSide)) { directory in "gqlc snapshot \(directory) \(SnapshotCommand.resume.flagName)" }
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
        let report = DiffReport(output: console.output, notes: console.error)
        guard globals.output != .ndjson else {
            return status(invocation, report.writeJSONLines(operation, reason: { RunFailure($0).message }))
        }
        let written = report.writeText(
            operation, text: DiffText(palette: Palette.isOn(globals, console: console) ? .standard : nil),
            environment: ProcessEnvironment.current(), reason: { RunFailure($0).message })
        let compared = written.outcome.map { outcome in status(invocation, outcome) }
        guard let failure = written.failure else { return compared ?? .success }
        diagnostics.error(failure.description)
        return .writeFailed
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
