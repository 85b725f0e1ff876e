import GQLCore

/// `gqlc snapshot DIR [MODEL…] [--resume]`
struct SnapshotInvocation: Equatable, Sendable {
    let directory: String
    /// The models to list; empty for every model.
    let models: [String]
    let resume: Bool
}

/// Lists every model (or the named ones) into a directory: one NDJSON file per model and a manifest.
enum SnapshotCommand: CommandDefinition {
    static let resume = OptionSpec(
        long: "resume", help: "Finish an interrupted snapshot in DIR: list the models its manifest does not mark complete.")
    static let directoryArgument = ArgumentSpec(name: "DIR", help: "The snapshot directory (created when missing).")

    static let spec = CommandSpec(
        name: "snapshot",
        abstract: "Save every model's records through the API into a directory.",
        synopsis: ["DIR [MODEL]... [--resume]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Lists each model (in name order, or the MODELs given) to its end and writes DIR/MODEL.ndjson, \
                    one record per line as 'list --output ndjson' prints them, and DIR/manifest.json (format \
                    gqlc-snapshot/1: each model's file, record count and whether it is complete; the schema \
                    file's SHA-256; the endpoint; when it was taken). Pages are written as they arrive, so \
                    memory stays flat however many records there are; a progress line shows on a terminal.
                    """),
                .paragraph(
                    """
                    The manifest is rewritten after each model: after Ctrl-C (status 130) or a failed request \
                    it says which models are complete, and --resume lists only the others. A model whose list \
                    operation is disabled, or that the auth mode may not read, is named and skipped (status 3). \
                    gqlc restore puts a snapshot back; docs/moving-data.md describes the format.
                    """),
            ])
        ],
        arguments: [directoryArgument, ArgumentSpec(name: "MODEL", help: "Only these models (default: every model).")],
        options: [resume],
        examples: [
            Example("Every model of the nearest amplify_outputs.json", "gqlc snapshot backup-monday"),
            Example("Two models only", "gqlc snapshot snap Post Comment"),
            Example("Finish an interrupted snapshot", "gqlc snapshot backup-monday --resume"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> SnapshotInvocation {
        let directory = try arguments.required(directoryArgument, at: 0)
        let models = try SharedOptions.modelNames(arguments, from: 1)
        return SnapshotInvocation(directory: directory, models: models, resume: arguments.options.contains(resume))
    }

    static func run(_ invocation: SnapshotInvocation, in context: RunContext) -> ExitCode {
        ModelCommandRunner.prepare(context) { runner in run(invocation, with: &runner) }
    }
}
