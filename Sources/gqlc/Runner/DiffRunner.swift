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
        let models = (invocation.models.isEmpty ? schema.modelNames : invocation.models).filter { name in
            [(from, fromRunner), (to, toRunner)].allSatisfy { side, _ in
                switch side {
                case .snapshot(_, let manifest): return manifest.entry(name)?.complete == true
                case .environment: return schema.models[name]?.operations.list != nil
                }
            }
        }
        let ndjson = context.session.globals.output == .ndjson
        let console = context.session.console
        var status = ExitCode.success
        for name in models {
            guard let model = schema.models[name] else { continue }
            var streams: [Bool: (SnapshotError?, () throws(SnapshotError) -> any RecordStream)] = [:]
            for (isTo, side, runner) in [(false, from, fromRunner), (true, to, toRunner)] {
                streams[isTo] = (nil, opener(side, runner: runner, model: name))
            }
            let diff = RecordDiff(model: model, ignore: Set(invocation.ignore), fields: invocation.fields)
            let counts: DiffCounts
            do {
                counts = try diff.run(
                    open: { isTo throws(SnapshotError) in
                        guard let open = streams[isTo]?.1 else { throw SnapshotError.unreadable("no side") }
                        return try open()
                    },
                    emit: { difference in
                        if ndjson {
                            console.output.write(difference.json.serialized(.compact) + "\n")
                            return
                        }
                        let key = BulkMessages.describe(difference.key)
                        switch difference.operation {
                        case .added: console.output.write("+ \(name) \(key)\n")
                        case .removed: console.output.write("- \(name) \(key)\n")
                        case .changed: console.output.write("~ \(name) \(key): \(difference.fields.joined(separator: ", "))\n")
                        }
                    })
            } catch {
                diagnostics.error("\(name): \(error.description)")
                return .graphQLErrors
            }
            if !counts.same { status = .differ }
            console.error.write("\(name): \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed\n")
        }
        return status
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
