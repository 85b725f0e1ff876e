import GQLCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What bulk `create`, `update` and `delete` (`--input`, `--where`) share: the core's ``BulkWriteOperation`` does the
/// work over this run's one client and its ``BulkWriteReport`` writes it, in the words of ``CommandLineBulkPhrasing``.
/// Each command's own run is in its `Runner/FooRunner.swift`.
extension ModelCommandRunner {
    /// Opens `--input` and reads up to two items, so that one object can still be handled as a single command.
    func openBulkInput(_ source: InputSource) throws(RunFailure) -> BulkInputStream {
        var input: BulkInputStream
        do {
            switch source {
            case .file(let path): input = try BulkInputStream(path: path)
            case .standardInput where session.console.input is StandardInput:
                input = BulkInputStream(descriptor: STDIN_FILENO, name: source.name)
            case .standardInput: input = BulkInputStream(bytes: try session.console.input.readAll(), name: source.name)
            }
        } catch {
            throw RunFailure.usage("\(BulkOptions.input.flagName): \(error.description)")
        }
        do {
            try input.readAhead()
        } catch {
            throw RunFailure.usage("\(BulkOptions.input.flagName): \(source.name): \(error.description)")
        }
        return input
    }

    /// The single record of a one-object `--input`, parsed, with errors phrased as for any JSON file.
    func singleValue(_ input: BulkInputStream) throws(RunFailure) -> JSONValue {
        let flag = BulkOptions.input.flagName
        guard let item = input.ahead.first else { throw RunFailure.usage("\(flag): \(input.name): the input is empty; expected a JSON object") }
        if item.isOversized { throw RunFailure.usage("\(flag): \(input.name): \(CommandLineBulkPhrasing.phrase(.oversized))") }
        do {
            return try item.parse()
        } catch {
            throw RunFailure.usage("\(flag): \(input.name): \(BulkItemProblem.invalidJSON(error))")
        }
    }

    /// Runs a bulk job over `--input`'s records; an update or delete of a model with conflict detection first reads
    /// every record's `_version`.
    mutating func runBulk(
        _ operation: BulkWriteOperation, settings: BulkSettings, fields: [String]?, input: inout BulkInputStream
    ) -> ExitCode {
        var operation = operation
        if operation.operation != .create {
            switch bulkVersions(operation.model) {
            case .success(let table): operation.versions = table
            case .failure(let stop): return stop.status
            }
        }
        return runBulk(operation, settings: settings, fields: fields, inputName: input.name, readRest: input.isRegularFile) {
            () throws(BulkInputError) in try input.next()
        }
    }

    /// Runs (or, for `--dry-run`, prints) a bulk job over `next`'s items through `client` (this run's, resolved now
    /// when not given) and renders it; returns 0, 3, 1, 130, 2 when the input broke off, 7 or 141 when output failed.
    func runBulk(
        _ operation: BulkWriteOperation, settings: BulkSettings, fields: [String]?, inputName: String, readRest: Bool,
        client given: GraphQLClient? = nil, next: () throws(BulkInputError) -> BulkInputItem?
    ) -> ExitCode {
        var operation = operation
        (operation.concurrency, operation.phrase) = (settings.concurrency, CommandLineBulkPhrasing.phrase)
        let (columns, rejects): ([String], RejectsFile?)
        var execution = self.execution
        let client: GraphQLClient?
        do throws(RunFailure) {
            columns = try bulkColumns(operation.model, fields: fields)
            rejects = try settings.rejects.map { path throws(RunFailure) in
                do throws(FileWriter.WriteError) {
                    return try RejectsFile(path: path)
                } catch {
                    throw RunFailure.usage("\(BulkOptions.rejects.flagName): \(error)")
                }
            }
            client = if globals.dryRun { nil } else if let given { given } else { try execution.client() }
        } catch {
            return usage(error)
        }
        let (console, diagnostics) = (session.console, execution.diagnostics)
        let progress = globals.dryRun ? nil : ProgressReporter.make(console: console, globals: globals)
        let sinks = BulkWriteReport.Sinks(
            output: console.output, outputFailed: { console.output.failure != nil },
            records: BulkRecordPrinter(ResultPrinter(console: console, globals: globals, columns: columns)),
            progress: progress, recordsShareProgress: progress != nil && console.outputIsTerminal,
            say: { diagnostics.error($0) }, summary: console.error)
        let report = BulkWriteReport(
            sinks: sinks, rejects: rejects, words: BulkItemWords(model: operation.model, operation: operation.operation),
            inputName: inputName, dryRun: client == nil)
        // A failed write of stdout or --rejects stops the job from starting records, so that each one is accounted for.
        if client != nil { console.output.deferFailures() }
        let kind = report.run(
            operation, in: client.map { APIContext(schema: schema, client: $0) }, next: next, readRestWhenCancelled: readRest)
        return bulkStatus(kind, report: report, output: console.output)
    }

    /// After a bulk job: what could not be written and the summary line (not for a dry run), then the exit code: the
    /// job's own, or 7 or 141 when its output or rejects file failed.
    private func bulkStatus(_ kind: ResultKind, report: BulkWriteReport, output: any TextSink) -> ExitCode {
        let failure = output.failure
        let why: String? = switch failure {
        case .closedPipe?: "standard output was closed"
        case .failed(let reason)?: "cannot write standard output: \(reason)"
        case nil: nil
        }
        let ending = report.finish(outputFailure: why)
        if ending.rejectsFailed { return .writeFailed }
        switch failure {
        case .closedPipe?: return .closedPipe
        case .failed?: return .writeFailed
        case nil: return ending.halted ? .writeFailed : ExitCode(kind)
        }
    }

    /// The columns each record is printed with (`--output table|tsv|raw`), after checking that `fields` are
    /// fields a create, update or delete returns; before anything is read or sent.
    func bulkColumns(_ model: String, fields: [String]?) throws(RunFailure) -> [String] {
        if let fields {
            do {
                try builder.checkMutationFields(model, fields: .paths(fields))
            } catch {
                throw RunFailure.request(error)
            }
        }
        return try recordColumns(model, fields: fields)
    }

    /// For a bulk update or delete of a model with conflict detection, every record's version, read in pages of
    /// keys and versions (nil for other models, and under `--dry-run`, which sends nothing).
    private mutating func bulkVersions(_ model: String) -> Result<VersionTable?, BulkStop> {
        guard schema.models[model]?.conflictDetection != nil else { return .success(nil) }
        if globals.dryRun {
            diagnostics.error(VersionTable.dryRunNote(model: model))
            return .success(nil)
        }
        let client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return .failure(BulkStop(status: usage(error)))
        }
        do {
            return .success(try VersionTable.read(model: model, builder: builder, client: client))
        } catch {
            switch error {
            case .request(let error): return .failure(BulkStop(status: usage(error)))
            case .execution(let error): diagnostics.error(error)
            case .errors(let errors): diagnostics.graphQLErrors(errors)
            case .cancelled: break
            }
            diagnostics.error(error.ending(model: model))
            return .failure(BulkStop(status: ExitCode(error.kind)))
        }
    }
}

/// A bulk job that stops before it starts, with its status (the reason is printed).
private struct BulkStop: Error {
    let status: ExitCode
}
