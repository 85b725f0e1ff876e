import GQLCore

/// `gqlc restore DIR [MODEL…] [--skip-existing] [--force] [--map-owner FILE] [--concurrency N] [--rejects DIR]`
struct RestoreInvocation: Equatable, Sendable {
    let directory: String
    /// The models to restore; empty for every complete model of the snapshot.
    let models: [String]
    let skipExisting: Bool
    let force: Bool
    let mapOwner: InputSource?
    let concurrency: Int
    /// A directory for one rejects file per model.
    let rejects: String?
}

/// Creates a snapshot's records through the API, in dependency order, with the bulk engine.
enum RestoreCommand: CommandDefinition {
    static let skipExisting = OptionSpec(
        long: "skip-existing", help: "Count a record whose key already exists as skipped, not failed, so that a restore can be re-run.")
    static let force = OptionSpec(
        long: "force", help: "Restore what fits when the snapshot's models or fields do not fit the target's schema.")
    static let mapOwner = OptionSpec(
        long: "map-owner", value: "FILE",
        help: "A JSON object from old owner value to new (\"<sub>::alice\": \"<sub2>::alice\"), applied to the declared owner fields of owner rules.")
    static let rejects = OptionSpec(
        long: "rejects", value: "DIR", help: "Write each model's failed or unsent records to DIR/MODEL.ndjson (restore DIR finishes them).")

    static let spec = CommandSpec(
        name: "restore",
        abstract: "Create a snapshot's records through the API, parents first.",
        synopsis: ["DIR [MODEL]... [--skip-existing] [--force] [--map-owner FILE] [--concurrency N] [--rejects DIR]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Reads a directory that gqlc snapshot wrote and creates its records with their keys, model \
                    by model: a model whose records hold foreign keys to another's comes after it, so \
                    belongs-to targets come first and join models last. A link that would close a cycle (a \
                    model pointing to itself, or two models pointing to each other) is left out of the create \
                    and set by an update once every model is created. Records are sent --concurrency N at a \
                    time with adaptive pacing and retries; a create carries its key, so a retry cannot make a \
                    duplicate.
                    """),
                .paragraph(
                    """
                    Before anything is sent, each model's first record is checked against the target's \
                    schema: a model or field the target lacks, or a field it requires that the snapshot \
                    lacks, stops the restore with the differences (--force restores what fits). The \
                    server sets createdAt and updatedAt, and an owner field that is not declared in the \
                    model (the transformer adds it) cannot be written with an API key or IAM: both are said \
                    once. A summary per model ends standard error. Exit status: 0 when every record was \
                    restored or skipped, 3 when some failed, 130 when interrupted.
                    """),
            ])
        ],
        arguments: [SnapshotCommand.directoryArgument, ArgumentSpec(name: "MODEL", help: "Only these models (default: every complete model).")],
        options: [skipExisting, force, mapOwner, BulkOptions.concurrency, rejects],
        examples: [
            Example("Restore a snapshot into the API of the nearest amplify_outputs.json", "gqlc restore backup-monday"),
            Example("Re-run after a partial restore", "gqlc restore backup-monday --skip-existing"),
            Example("Restore posts and comments with owners of the new user pool",
                    "gqlc restore snap Post Comment --map-owner owners.json"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> RestoreInvocation {
        let directory = try arguments.required(SnapshotCommand.directoryArgument, at: 0)
        let models = try SharedOptions.modelNames(arguments, from: 1)
        let options = arguments.options
        return RestoreInvocation(
            directory: directory, models: models, skipExisting: options.contains(skipExisting), force: options.contains(force),
            mapOwner: options.value(mapOwner).map(InputSource.init(argument:)), concurrency: try BulkOptions.jobConcurrency(arguments),
            rejects: options.value(rejects))
    }

    static func run(_ invocation: RestoreInvocation, in context: RunContext) -> ExitCode {
        ModelCommandRunner.prepare(context) { runner in run(invocation, with: &runner) }
    }

    static func writes(_ invocation: RestoreInvocation) -> String? { "restore a snapshot" }
}
