import GQLCore

/// `gqlc delete MODEL (--id VALUE | --key FIELD=VALUE...) [--if EXPR]... [--cascade]`,
/// `gqlc delete MODEL --input FILE|-`, `gqlc delete MODEL (--where EXPR... | --filter JSON|@FILE) [--yes]`
struct DeleteInvocation: Equatable, Sendable {
    let model: String
    /// The one record to delete; nil for a bulk delete (`--input`, `--where`, `--filter`).
    let record: RecordSelector?
    /// `--if` expressions: the delete applies only when the stored record matches all of them.
    let conditions: [String]
    /// Keys, or records as `get` and `list` print them, to delete.
    var input: InputSource? = nil
    /// `--where` expressions selecting the records to delete.
    var matching: [String] = []
    /// `--filter`, AND-ed with `matching`.
    var filter: FilterArgument? = nil
    /// `--yes`: do not ask before deleting what `--where`/`--filter` or `--cascade` found.
    var confirmed = false
    /// `--cascade`: delete the record's children first.
    var cascade = false
    /// `--concurrency`, `--rejects`.
    var bulk = BulkSettings()
    /// `--fields` paths; nil selects every field.
    var fields: [String]? = nil
    /// `--expected-version`: the `_version` to send instead of reading it first (conflict detection).
    var expectedVersion: Int? = nil

    /// Whether this deletes what a listing finds.
    var isQuery: Bool { !matching.isEmpty || filter != nil }
}

/// Deletes one record, the records of an input, or the records a filter matches.
enum DeleteCommand: CommandDefinition {
    static let whereOption = OptionSpec(
        long: "where", value: "EXPR", repeatable: true,
        help: "Delete every record that matches EXPR (the --where grammar of 'gqlc help list'); several are AND-ed.").completing(.where)
    static let filter = OptionSpec(
        long: "filter", value: "JSON|@FILE", help: "Delete every record that matches this AppSync filter object; AND-ed with --where.")
    /// The global `--yes`, which delete's confirmations read.
    static let yes = GlobalOptions.yesOption
    static let cascade = OptionSpec(
        long: "cascade",
        help: "Also delete the record's hasMany children (recursively), its hasOne child and its many-to-many join records, children first.")

    static let spec = CommandSpec(
        name: "delete",
        traits: [.printsRecords],
        abstract: "Delete records and print them as they were.",
        synopsis: [
            "MODEL (--id VALUE | --key FIELD=VALUE...) [--if EXPR]... [--expected-version N] [--cascade [--yes]]",
            "MODEL --input FILE|- [--concurrency N] [--rejects FILE]",
            "MODEL (--where EXPR... | --filter JSON|@FILE) [--yes] [--concurrency N] [--rejects FILE] [--fields A,B,…]",
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    With --if, the record is deleted only when it matches every condition. If no record \
                    has that key, gqlc exits with status 4. Related records (such as a post's comments) \
                    are not deleted: gqlc warns how many would be left pointing at nothing (one \
                    '--limit 1' query per association). --cascade deletes them first, as Amplify's \
                    guide for relational models says: hasMany children (recursively, through every \
                    page), the hasOne child and many-to-many join records, then the record. --dry-run \
                    prints the plan as a tree with counts; on a terminal gqlc asks first.
                    """),
                .paragraph(
                    """
                    --input takes keys ({"id": "p1"}), or the records that 'get' and 'list' print, and \
                    deletes them as a bulk job (see Bulk), then warns per association how many of them \
                    still have related records (not checked past 100 records). --where and --filter list the matching \
                    records, then delete them: on a terminal gqlc shows the count and asks first; \
                    --yes skips the question (and is needed when standard input is not a terminal); \
                    --dry-run prints the count and the keys and deletes nothing.
                    """),
            ]),
            BulkOptions.help(for: .delete),
        ],
        arguments: [SharedOptions.model],
        options: [
            SharedOptions.id, SharedOptions.key, SharedOptions.condition, cascade, BulkOptions.input, whereOption,
            filter, SharedOptions.recordFields, BulkOptions.concurrency, BulkOptions.rejects,
            SharedOptions.expectedVersion,
        ],
        examples: [
            Example("Delete comment c1", "gqlc delete Comment --id c1"),
            Example("Delete post p1 only if it was never published", "gqlc delete Post --id p1 --if status=DRAFT"),
            Example(
                "Delete an item by its composite key",
                "gqlc delete InventoryItem --key sku=A1 --key warehouseId=W1 --key bin=3"),
            Example("Show what deleting post p1 and everything under it would delete", "gqlc delete Post --id p1 --cascade --dry-run"),
            Example("Delete every comment by ana, without asking", "gqlc delete Comment --where author=ana --yes"),
            Example("Delete the keys listed in a file", "gqlc delete Comment --input keys.ndjson --rejects left.ndjson"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> DeleteInvocation {
        let model = try SharedOptions.modelName(arguments)
        try arguments.expectNoPositionals(after: 1)
        let options = arguments.options
        let input = SharedOptions.inputSource(arguments)
        let matching = options.values(whereOption)
        let filterArgument = try options.value(filter).map(ListCommand.parseFilter)
        let isQuery = !matching.isEmpty || filterArgument != nil
        let picksRecord = options.contains(SharedOptions.id) || options.contains(SharedOptions.key)
        let ways = [picksRecord ? "--id/--key" : nil, input != nil ? "--input" : nil, isQuery ? "--where/--filter" : nil]
            .compactMap { $0 }
        if ways.count > 1 {
            throw UsageError("options '\(ways[0])' and '\(ways[1])' cannot be used together: they pick the records in different ways")
        }
        if ways.isEmpty {
            throw UsageError(
                "'delete' needs --id VALUE or --key FIELD=VALUE to pick the record, or --where EXPR, --filter JSON "
                    + "or --input FILE for many")
        }
        let record = picksRecord ? try SharedOptions.recordSelector(arguments) : nil
        let conditions = try SharedOptions.conditions(arguments)
        if record == nil, !conditions.isEmpty {
            throw UsageError("option '--if' needs --id or --key: it is the condition of one delete")
        }
        if record == nil, options.contains(cascade) {
            throw UsageError("option '--cascade' needs --id or --key: it deletes one record and what belongs to it")
        }
        try options.expectExclusive(SharedOptions.condition, cascade)
        return DeleteInvocation(
            model: model, record: record, conditions: conditions, input: input, matching: matching,
            filter: filterArgument, confirmed: options.contains(yes), cascade: options.contains(cascade),
            bulk: try BulkOptions.settings(arguments), fields: try SharedOptions.fieldPaths(arguments),
            expectedVersion: try SharedOptions.expectedVersion(arguments, oneRecord: record != nil && !options.contains(cascade)))
    }
}

extension DeleteCommand {
    static func writes(_ invocation: DeleteInvocation) -> String? { "delete \(invocation.model) records" }
}
