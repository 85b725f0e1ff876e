import GQLCore

/// Renders a core operation's events: results and records to standard output in the chosen format, the rest to
/// standard error as one `gqlc:` line each, phrased with the command line's flags.
struct OperationRenderer {
    private let printer: ResultPrinter
    private let diagnostics: Diagnostics
    private let console: Console
    /// The listing's progress line, cleared before anything else is written to standard error.
    private let progress: ProgressReporter?
    private var list: ResultPrinter.ListStream?
    /// Standard output was closed while records were written: nothing more is written to it.
    private var closedPipe = false
    /// What `interrupted after N …` counts.
    var itemWord = "items"

    init(printer: ResultPrinter, diagnostics: Diagnostics, console: Console, progress: ProgressReporter? = nil) {
        self.printer = printer
        self.diagnostics = diagnostics
        self.console = console
        self.progress = progress
    }

    /// Renders one event; false when records could not be written.
    mutating func render(_ event: OperationEvent) -> Bool {
        if case .records(let records) = event { return write(records) }
        progress?.clear()
        if let message = event.message(naming: \.flagName, remedy: \.commandLine) {
            diagnostics.error(message)
            return true
        }
        switch event {
        case .records, .invalidResponse, .notFound, .recordAlreadyExists, .countInterrupted, .countIncomplete, .noResumePoint,
            .writeTargetDeleted, .versionNotRead, .softDeleted, .autoMerged, .deletedRecordHidden, .resumePointRefused, .syncIncomplete,
            .versionNotReceived, .versionConflict, .conditionFalse, .conditionFalseOrMissing, .recordsLeftPointing, .decodePathNotFound:
            break  // said above
        case .result(let value), .envelope(let value): printer.print(value)
        case .recordsEnded(let complete):
            // Whatever was printed is closed (a JSON array, a held table); a listing that received no records prints
            // `[]` (or a table's header) only when it ended well, never a valid "no records" after a failed first page.
            var stream = list ?? printer.beginList()
            if !closedPipe, stream.hasRecords || complete { stream.finish() }
            list = nil
        case .count(let count): console.output.write("\(count)\n")
        case .graphQLErrors(let errors): diagnostics.graphQLErrors(errors)
        case .requestFailed(let error): diagnostics.error(error)
        case .appliedAfterRetry(let operation): diagnostics.error(operation.appliedAfterRetryNote)
        case .ownAttemptMayBeWhy(let operation, let model, let key):
            diagnostics.error(BulkItemWords(model: model, operation: operation).ownAttemptMayBeWhy(operation, key: key))
        case .writeMayHaveBeenApplied(let write): UncertainWrites.lines(write).forEach(diagnostics.error)
        case .includedListFailed(let failure): diagnostics.failure(.includedListFailed(failure.commandLineMessage))
        case .interrupted(let delivered): diagnostics.error("interrupted after \(delivered) \(itemWord)")
        case .resumePoint(let token): diagnostics.resumeToken(token)
        case .syncedUntil(let startedAt):
            // As `next token:` is: a line of its own on standard error, for scripts to read.
            console.error.write("next since: \(startedAt)\n")
        }
        return true
    }

    /// A page of records, written above the progress line when both share the terminal.
    private mutating func write(_ records: [JSONValue]) -> Bool {
        // Taken out, not copied, so that the stream's writer reuses its page buffer instead of allocating another.
        var stream = list.take() ?? printer.beginList()
        let sharesTerminal = progress != nil && console.outputIsTerminal
        if sharesTerminal { progress?.clear() }
        defer { if sharesTerminal { progress?.advance(items: 0) } }
        let written = stream.write(records)
        list = stream
        if !written { closedPipe = true }
        return written
    }
}
