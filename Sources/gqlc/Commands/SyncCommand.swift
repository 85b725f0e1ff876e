import GQLCore

/// `gqlc sync MODEL [--since TIME] [--where EXPR]... [--filter JSON|@FILE]`
struct SyncInvocation: Equatable, Sendable {
    let model: String
    /// `lastSync` in milliseconds; nil syncs every record.
    let since: Int?
    let conditions: [String]
    let filter: FilterArgument?
}

/// The records of a model with conflict detection changed since a time (its `sync<Plural>` query).
enum SyncCommand: CommandDefinition {
    static let since = OptionSpec(
        long: "since", value: "TIME",
        help: "Only records changed at or after TIME: the startedAt an earlier sync printed (milliseconds since 1970), "
            + "or a UTC time such as 2026-01-31T09:30:00Z. Without it, every record.")

    static let spec = CommandSpec(
        name: "sync",
        abstract: "Print the records changed since a time (Gen 1 conflict detection).",
        synopsis: ["MODEL [--since TIME] [--where EXPR]... [--filter JSON|@FILE]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    For Gen 1 DataStore APIs (AppSync conflict detection): runs sync<Plural> with lastSync \\
                    and pages to the end, printing every record changed since TIME as list does, soft-deleted \\
                    ones too (with _deleted: true). When the listing ends, 'next since: N' on standard \\
                    error is the server's startedAt: pass --since N next time to get what changed after this run.
                    """),
            ])
        ],
        arguments: [SharedOptions.model],
        options: [since, ListCommand.whereOption, ListCommand.filter],
        examples: [
            Example("Every stock item, deleted ones included", "gqlc sync StockItem"),
            Example("What changed since the startedAt an earlier sync printed", "gqlc sync StockItem --since 1795730740192"),
            Example("Changes since a time, one warehouse", "gqlc sync StockItem --since 2026-11-01T00:00:00Z --where warehouseId=w1"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> SyncInvocation {
        let model = try SharedOptions.modelName(arguments)
        try arguments.expectNoPositionals(after: 1)
        let options = arguments.options
        let sinceValue = try options.value(since).map { text throws(UsageError) -> Int in
            guard let value = ConflictDetection.syncTime(text) else {
                throw ValueParsing.invalid(
                    text, for: since, expected: "milliseconds since 1970 (a printed startedAt) or a UTC time such as 2026-01-31T09:30:00Z")
            }
            return value
        }
        return SyncInvocation(
            model: model, since: sinceValue, conditions: options.values(ListCommand.whereOption),
            filter: try options.value(ListCommand.filter).map(ListCommand.parseFilter))
    }
}

extension SyncInvocation: ModelInvocation {}
