import GQLCore

/// `gqlc copy --from ENV --to ENV [MODEL…] [--skip-existing] [--map-owner FILE] [--concurrency N]`
struct CopyInvocation: Equatable, Sendable {
    let from: String
    let to: String
    /// The models to copy; empty for every model both sides have.
    let models: [String]
    let skipExisting: Bool
    let mapOwner: InputSource?
    let concurrency: Int
}

/// Snapshot and restore in one stream: each model is listed from one environment and created in the other.
enum CopyCommand: CommandDefinition {
    static let from = OptionSpec(long: "from", value: "ENV", help: "The named environment to copy from.")
    static let to = OptionSpec(long: "to", value: "ENV", help: "The named environment to copy into.")

    static let spec = CommandSpec(
        name: "copy",
        abstract: "Copy records from one named environment to another.",
        synopsis: ["--from ENV --to ENV [MODEL]... [--skip-existing] [--map-owner FILE] [--concurrency N]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Lists each model from --from and creates its records in --to as gqlc restore does (parents \
                    first, links that close a cycle set by a second pass, keys kept, the bulk engine), with no \
                    files: a model's pages are created while the next ones are listed, a few pages ahead, so \
                    memory stays flat. Each side's settings come from its environment (see 'gqlc help env'); \
                    a connection flag or GQLC_* variable, which would apply to both, is refused.
                    """),
                .paragraph(
                    """
                    --dry-run prints the plan (the models in order with their record counts) and sends no \
                    write. Copying into a protected environment asks first (--yes where nothing can ask); into \
                    a read-only one is refused. Exit status: 0 when every record was copied or skipped, 3 when \
                    some failed or a listing stopped, 130 when interrupted.
                    """),
            ])
        ],
        arguments: [ArgumentSpec(name: "MODEL", help: "Only these models (default: every model).")],
        options: [from, to, RestoreCommand.skipExisting, RestoreCommand.mapOwner, BulkOptions.concurrency],
        examples: [
            Example("Copy dev's data into a preview environment", "gqlc copy --from dev --to preview"),
            Example("What would be copied", "gqlc copy --from dev --to staging --dry-run"),
            Example("Re-run after a partial copy", "gqlc copy --from dev --to staging Post Comment --skip-existing"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> CopyInvocation {
        let options = arguments.options
        guard let source = options.value(from), let target = options.value(to) else {
            throw UsageError("copy needs --from ENV and --to ENV; usage: \(spec.usageLine)")
        }
        guard source != target else { throw UsageError("--from and --to name the same environment '\(source)'") }
        let models = try SharedOptions.modelNames(arguments)
        return CopyInvocation(
            from: source, to: target, models: models, skipExisting: options.contains(RestoreCommand.skipExisting),
            mapOwner: options.value(RestoreCommand.mapOwner).map(InputSource.init(argument:)),
            concurrency: try BulkOptions.jobConcurrency(arguments))
    }

    static func run(_ invocation: CopyInvocation, in context: RunContext) -> ExitCode {
        CopyRunner(context: context).run(invocation)
    }
}
