import GQLCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bulk `create`, `update` and `delete`: the core's ``BulkRunner`` does the work; this renders it.
extension ModelCommandRunner {
    /// An `--input` opened for streaming, with its first items read so that one object can still be
    /// handled as a single command (assignments override it, the record is printed as `get` prints one).
    struct BulkInput {
        var reader: BulkInputReader<InputChunks>
        /// Items read ahead, handed out first.
        var ahead: [BulkInputItem]
        let name: String
        /// Whether the rest of the input can be read after Ctrl-C without waiting on a pipe or terminal.
        let isRegularFile: Bool

        /// Nothing at all (not even `[]`).
        var isEmpty: Bool { ahead.isEmpty && reader.layout == nil && pendingError == nil }

        /// One JSON value that is not in an array: the single-record form.
        var isSingle: Bool { ahead.count == 1 && reader.layout == .sequence && pendingError == nil }

        /// An error met while reading ahead, thrown once the items before it are handed out.
        var pendingError: BulkInputError?

        mutating func next() throws(BulkInputError) -> BulkInputItem? {
            if !ahead.isEmpty { return ahead.removeFirst() }
            if let error = pendingError {
                pendingError = nil
                throw error
            }
            return try reader.next()
        }
    }

    /// Opens `--input` and reads up to two items.
    func openBulkInput(_ source: InputSource) throws(RunFailure) -> BulkInput {
        let chunks: InputChunks
        var regular = false
        do {
            switch source {
            case .file(let path):
                let descriptor = try FileReader.openForReading(path: path)
                var status = stat()
                regular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
                chunks = .descriptor(DescriptorChunks(descriptor: descriptor, name: path))
            case .standardInput:
                if session.console.input is StandardInput {
                    chunks = .descriptor(DescriptorChunks(descriptor: STDIN_FILENO, name: source.name))
                } else {
                    chunks = .buffered(BufferedChunks(try session.console.input.readAll()))
                }
            }
        } catch {
            throw RunFailure.usage("--input: \(error.description)")
        }
        var input = BulkInput(reader: BulkInputReader(source: chunks), ahead: [], name: source.name, isRegularFile: regular)
        do {
            while input.ahead.count < 2, let item = try input.reader.next() { input.ahead.append(item) }
        } catch {
            if input.ahead.isEmpty { throw RunFailure.usage("--input: \(source.name): \(error.description)") }
            input.pendingError = error
        }
        return input
    }

    /// The single record of a one-object `--input`, parsed, with errors phrased as for any JSON file.
    func singleValue(_ input: BulkInput) throws(RunFailure) -> JSONValue {
        guard let item = input.ahead.first else {
            throw RunFailure.usage("--input: \(input.name): the input is empty; expected a JSON object")
        }
        if item.isOversized { throw RunFailure.usage("--input: \(input.name): \(Self.oversizedMessage)") }
        do {
            return try item.parse()
        } catch {
            throw RunFailure.usage("--input: \(input.name): invalid JSON at \(error.line):\(error.column): \(error.message)")
        }
    }

    // MARK: Running

    /// Runs a bulk job over `next`'s items and renders it: records on stdout, failures on stderr, the
    /// rejects file, the summary line; returns 0, 3, 1, 130, or 2 when the input broke off.
    func runBulk(
        _ operation: BulkOperation, model: String, settings: BulkSettings, fields: [String]?, inputName: String,
        readRest: Bool, next: () throws(BulkInputError) -> BulkInputItem?,
        prepare: (BulkInputItem) -> Result<BulkRequest, BulkPrepareFailure>
    ) -> ExitCode {
        let columns: [String]
        do {
            columns = try bulkColumns(model, fields: fields)
        } catch {
            return usage(error)
        }
        let rejects: RejectsFile?
        do {
            rejects = try settings.rejects.map { path throws(RunFailure) in try RejectsFile(path: path) }
        } catch {
            return usage(error)
        }
        if globals.dryRun { return dryRunBulk(inputName: inputName, next: next, prepare: prepare, rejects: rejects) }
        var execution = self.execution
        let client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return usage(error)
        }
        let diagnostics = execution.diagnostics
        // A failed write of stdout or --rejects stops the job from starting records, so that each one is accounted for.
        let output = session.console.output
        output.deferFailures()
        let halt = CancellationFlag()
        let records = BulkRecordPrinter(ResultPrinter(console: session.console, globals: globals, columns: columns))
        let describe = BulkMessages(model: model, operation: operation)
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        // Records printed to the same terminal as the progress line, and messages, go above it.
        let recordsShareTerminal = progress != nil && session.console.outputIsTerminal
        var runner = BulkRunner(
            operation: operation, concurrency: settings.concurrency, retry: client.retry,
            cancellation: session.cancellation,
            makeClient: { _ in
                // Each worker has its own connection: the shared transport takes turns.
                var own = client
                own.transport = CurlTransport()
                progress?.keepNoticesAbove(&own)
                return own
            },
            progress: progress.map { reporter -> @Sendable (BulkCounts) -> Void in
                { counts in reporter.update(items: counts.total, failed: counts.failed) }
            })
        runner.halt = halt
        // Said even off a terminal: a job that slows itself down says why.
        runner.pacingNotice = { notice in ProgressReporter.above(progress) { diagnostics.error(notice.description) } }
        let deleted = operation == .delete ? DeletedKeys() : nil
        let repeated = RepeatedFailures()
        let (counts, stop) = runner.run(next: next, readRestWhenCancelled: readRest, prepare: prepare) { result in
            switch result.outcome {
            case .done(let record):
                deleted?.add(result.key)
                guard output.failure == nil else { return }
                var printed = false
                ProgressReporter.above(recordsShareTerminal ? progress : nil) { printed = records.write(record) }
                if !printed { halt.cancel() }
                return
            case .failed(.invalid(let reason)) where !repeated.firstTime(reason, line: result.item.line):
                break  // said once, and counted for the end
            case .failed(let failure):
                let message = "\(describe.place(result, inputName)): \(describe.message(failure))"
                ProgressReporter.above(progress) { diagnostics.error(message) }
            case .interrupted:
                let message = "\(describe.place(result, inputName)): interrupted in flight; it may have been applied"
                    + (result.key.map { " (key \(describe.key($0)))" } ?? "")
                ProgressReporter.above(progress) { diagnostics.error(message) }
            case .notSent:
                break
            }
            if rejects?.write(BulkMessages.rejectLine(result, operation: operation), inputLine: result.item.line) == false {
                halt.cancel()
            }
        }
        if output.failure == nil { records.finish() }
        progress?.clear()
        repeated.report(inputName: inputName).forEach(diagnostics.error)
        if case .inputFailed(let error) = stop {
            // A file error names the file itself.
            let what = if case .file(let fileError) = error { fileError.reason } else { error.description }
            diagnostics.error("--input: \(inputName): \(what); the records before it were processed")
        }
        if let deleted, stop == .endOfInput { warnBulkOrphans(model, deleted: deleted, client: client) }
        let rejectsFailure = rejects?.failureMessage
        if let rejectsFailure { diagnostics.error(rejectsFailure) }
        if let failure = output.failure {
            let why = switch failure {
            case .closedPipe: "standard output was closed"
            case .failed(let reason): "cannot write standard output: \(reason)"
            }
            let rest = rejects == nil || rejectsFailure != nil ? "" : "; the records not sent are in \(rejects?.path ?? "")"
            diagnostics.error(why + "; stopped starting records" + rest)
        }
        session.console.error.write(describe.summary(counts) + "\n")
        if rejectsFailure != nil { return .writeFailed }
        switch output.failure {
        case .closedPipe?: return .closedPipe
        case .failed?: return .writeFailed
        case nil: break
        }
        switch stop {
        case .halted: return .writeFailed
        case .cancelled: return .interrupted
        case .inputFailed: return .usage
        case .endOfInput: return ExitCode(counts.kind)
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

    /// `--dry-run`: each item's request body on its own line, nothing sent; memory stays flat.
    private func dryRunBulk(
        inputName: String, next: () throws(BulkInputError) -> BulkInputItem?,
        prepare: (BulkInputItem) -> Result<BulkRequest, BulkPrepareFailure>, rejects: RejectsFile?
    ) -> ExitCode {
        var counts = BulkCounts()
        var writer = JSONWriter(style: .compact)
        let repeated = RepeatedFailures()
        defer { repeated.report(inputName: inputName).forEach(diagnostics.error) }
        while true {
            let item: BulkInputItem
            do throws(BulkInputError) {
                guard let read = try next() else { break }
                item = read
            } catch {
                session.console.output.write(bytes: writer.bytes)
                diagnostics.error("--input: \(error.description)")
                return .usage
            }
            switch prepare(item) {
            case .success(let request):
                counts.done += 1
                writer.write(request.request.body)
                writer.bytes.append(UInt8(ascii: "\n"))
            case .failure(let failure):
                counts.failed += 1
                if repeated.firstTime(failure.message, line: item.line) {
                    diagnostics.error("\(inputName):\(item.line): \(failure.message)")
                }
                if rejects?.write(item.rejectLine, inputLine: item.line) == false, let message = rejects?.failureMessage {
                    diagnostics.error(message)
                    return .writeFailed
                }
            }
            if writer.bytes.count >= 1 << 16 {
                session.console.output.write(bytes: writer.bytes)
                writer.bytes.removeAll(keepingCapacity: true)
            }
        }
        session.console.output.write(bytes: writer.bytes)
        return ExitCode(counts.kind)
    }
}

/// A bulk input's bytes: a file descriptor, or standard input as a test supplies it.
enum InputChunks: ByteChunkSource {
    case descriptor(DescriptorChunks)
    case buffered(BufferedChunks)

    mutating func next() throws(FileReadError) -> [UInt8] {
        switch self {
        case .descriptor(var chunks):
            defer { self = .descriptor(chunks) }
            return try chunks.next()
        case .buffered(var chunks):
            defer { self = .buffered(chunks) }
            return try chunks.next()
        }
    }
}

/// The words of a bulk job's messages.
struct BulkMessages: Sendable {
    let model: String
    let operation: BulkOperation

    /// `posts.ndjson:12` (an input item), or `Post id=p1` (a record a listing found).
    func place(_ result: BulkItemResult, _ inputName: String) -> String {
        if result.item.line > 0 { return "\(inputName):\(result.item.line)" }
        return "\(model) " + (result.key.map(key) ?? "record \(result.item.index + 1)")
    }

    func key(_ key: JSONObject) -> String { Self.describe(key) }

    /// `id=p1`, `sku=A-1, warehouseId=w1`.
    static func describe(_ key: JSONObject) -> String {
        key.members.map { "\($0.key)=\($0.value.stringValue ?? $0.value.serialized(.compact))" }.joined(separator: ", ")
    }

    func message(_ failure: BulkItemFailure) -> String {
        switch failure {
        case .invalid(let message): return message
        case .execution(let error): return error.commandLineMessage
        case .errors(let errors): return errors.map(\.description).joined(separator: "; ")
        case .alreadyExists(let key, let afterRetry):
            let exists = "\(model) already has a record with key \(self.key(key))"
            return afterRetry ? exists + "; " + ModelCommandRunner.ownAttemptMayBeWhy(.create, model: model, key: key) : exists
        case .refusedAfterRetry(let key):
            return "the \(operation.rawValue) of \(model) \(self.key(key)) was refused; "
                + ModelCommandRunner.ownAttemptMayBeWhy(operation, model: model, key: key)
        case .notFound(let key): return "no \(model) with key \(self.key(key))"
        }
    }

    /// `1998 created, 2 failed in 3.21 s`, with what was in flight and not sent after an interruption.
    func summary(_ counts: BulkCounts) -> String {
        var line = "\(counts.done) \(operation.pastTense), \(counts.failed) failed"
        if counts.interrupted > 0 { line += ", \(counts.interrupted) interrupted in flight" }
        if counts.notSent > 0 { line += ", \(counts.notSent) not sent" }
        let hundredths = Int((counts.seconds * 100).rounded())
        let fraction = hundredths % 100
        return line + " in \(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// The input line as the rejects file gets it; a create's line carries the key it was sent with, so that a
    /// re-run cannot make a second record.
    static func rejectLine(_ result: BulkItemResult, operation: BulkOperation) -> [UInt8] {
        guard operation == .create, let key = result.key, case .object(var object)? = try? result.item.parse() else {
            return result.item.rejectLine
        }
        var added = false
        for member in key where object[member.key] == nil || object[member.key] == .null {
            object[member.key] = member.value
            added = true
        }
        guard added else { return result.item.rejectLine }
        return Array(JSONValue.object(object).serialized(.compact).utf8) + [UInt8(ascii: "\n")]
    }
}
