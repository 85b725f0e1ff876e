/// Writes a ``DiffOperation``'s differences: as NDJSON, one object per difference as it is found, each model's summary
/// line going to `notes`; as text for people, every model's summary first and then the differences, which wait in a
/// spool file meanwhile so that memory stays flat.
public struct DiffReport: Sendable {
    /// The differences (and a text report's summaries).
    public let output: any OutputSink
    /// An NDJSON report's summary lines.
    public let notes: any OutputSink

    public init(output: any OutputSink, notes: any OutputSink) {
        (self.output, self.notes) = (output, notes)
    }

    /// How a text report ended: the comparison's outcome (nil when the differences could not be spooled), and why the
    /// report is not whole (the spool could not be made, written or read back).
    public struct Written: Sendable {
        public var outcome: DiffOutcome?
        public var failure: SpoolError?
    }

    /// One JSON object per difference on `output`, `Post: 1 added, 0 removed, 2 changed` per model on `notes`.
    public func writeJSONLines(_ operation: DiffOperation, reason: (ContextError) -> String) -> DiffOutcome {
        operation.run(reason: reason) { difference in
            output.write(difference.json.serialized(.compact) + "\n")
        } finished: { name, counts in
            notes.write("\(name): \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed\n")
        }
    }

    /// The summaries in `text`'s words, then (after a blank line) the differences of the models compared to the end;
    /// the spool file goes in the temporary directory `environment` names.
    public func writeText(
        _ operation: DiffOperation, text: DiffText, environment: [String: String], reason: (ContextError) -> String
    ) -> Written {
        let spool: SpoolFile
        do {
            spool = try SpoolFile(directory: SpoolFile.directory(environment: environment))
        } catch {
            return Written(outcome: nil, failure: error)
        }
        let spooled = operation.run(spooling: spool, reason: reason, line: text.line) { name, counts in
            text.summary(model: name, counts)
        }
        output.write(spooled.summary)
        if let failure = spooled.failure { return Written(outcome: nil, failure: failure) }
        guard spooled.hasDifferences else { return Written(outcome: spooled.outcome, failure: nil) }
        output.write("\n")
        do {
            try spooled.replay { output.write(bytes: $0) }
        } catch {
            return Written(outcome: spooled.outcome, failure: error)
        }
        return Written(outcome: spooled.outcome, failure: nil)
    }
}
