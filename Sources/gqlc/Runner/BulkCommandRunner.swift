import GQLCore

/// What bulk `create`, `update` and `delete` (`--input`, `--where`) share: the core's ``BulkWriteOperation`` does the
/// work over this run's one client and its ``BulkWriteReport`` writes it, in the words of ``CommandLineBulkPhrasing``.
/// Each command's own run is in its `Runner/FooRunner.swift`.
extension ModelCommandRunner {
    /// Opens `--input` and reads up to two items, so that one object can still be handled as a single command.
    func openBulkInput(_ source: InputSource) throws(RunFailure) -> BulkInputStream {
        do throws(BulkInputOpenError) {
            return try BulkInputStream.open(source, input: session.console.input)
        } catch {
            throw .bulkInput(error)
        }
    }

    /// The single record of a one-object `--input`, parsed, with errors phrased as for any JSON file.
    func singleValue(_ input: BulkInputStream) throws(RunFailure) -> JSONValue {
        do throws(BulkInputOpenError) {
            return try input.single()
        } catch {
            throw .bulkInput(error)
        }
    }

    /// Runs a bulk job over `--input`'s records.
    func runBulk(_ operation: BulkWriteOperation, settings: BulkSettings, fields: [String]?, input: inout BulkInputStream) -> ExitCode {
        runBulk(operation, settings: settings, fields: fields, inputName: input.name, readRest: input.isRegularFile) {
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
            console: console, records: BulkRecordPrinter(ResultPrinter(console: console, globals: globals, columns: columns)),
            progress: progress, diagnostics: diagnostics)
        let report = BulkWriteReport(
            sinks: sinks, rejects: rejects, words: BulkItemWords(model: operation.model, operation: operation.operation),
            inputName: inputName, dryRun: client == nil)
        let kind = report.run(
            operation, in: client.map { APIContext(schema: schema, client: $0) }, next: next, readRestWhenCancelled: readRest)
        return bulkStatus(kind, report: report, output: console.output)
    }

    /// After a bulk job: what could not be written and the summary line (not for a dry run), then the exit code: the
    /// job's own, or 7 or 141 when its output or rejects file failed.
    private func bulkStatus(_ kind: ResultKind, report: BulkWriteReport, output: any TextSink) -> ExitCode {
        let failure = output.failure
        let ending = report.finish(outputFailure: failure?.standardOutputReason)
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
}
