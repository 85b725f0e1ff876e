import GQLCore

/// A bulk job's words on the command line: the options and commands that the core's ``BulkWriteReport`` leaves to the
/// front end, said in this one place.
struct CommandLineBulkPhrasing: BulkWritePhrasing {
    var input: String { BulkOptions.input.flagName }
    var rejects: String { BulkOptions.rejects.flagName }

    func showCascade(model: String) -> String {
        "gqlc delete \(model) \(SharedOptions.id.flagName) ID \(DeleteCommand.cascade.flagName) "
            + "\(GlobalOptions.dryRunOption.flagName) shows what one record has"
    }

    func cascade(model: String) -> String { "delete \(model) \(DeleteCommand.cascade.flagName) deletes a record with them" }

    func check(model: String, key: JSONObject) -> String? { UncertainWrites.check(model: model, key: key) }

    func message(_ error: ExecutionError) -> String { error.commandLineMessage }

    /// An item's problem as the command line says it (the oversized one names `--rejects`).
    static func phrase(_ problem: BulkItemProblem) -> String {
        switch problem {
        case .oversized:
            "larger than \(BulkInputItem.maximumSize >> 20) MiB, the most gqlc reads as one record; "
                + "it was read past and not sent (nor copied to \(BulkOptions.rejects.flagName))"
        case .invalidJSON: problem.description
        case .build(let error): error.commandLineMessage
        }
    }
}

extension BulkItemWords {
    /// The words of `model`'s `operation` items, phrased for the command line.
    init(model: String, operation: BulkOperation) {
        self.init(model: model, operation: operation, phrasing: CommandLineBulkPhrasing())
    }
}

extension Diagnostics: DiagnosticSink {
    /// A request that could not be built, its parameters named by their flags.
    func error(_ failure: RequestBuildError) { error(failure.commandLineMessage) }
}
