import GQLCore

/// `gqlc update MODEL (--id VALUE | --key FIELD=VALUE...) [FIELD=VALUE | FIELD:=JSON]... [--input FILE|-]
/// [--if EXPR]...`
struct UpdateInvocation: Equatable, Sendable {
    let model: String
    /// The record to change; nil when every `--input` record carries its own key (a bulk job).
    let record: RecordSelector?
    /// Field values from the command line; they override `input`'s fields.
    let assignments: [String]
    /// A JSON object of field values to apply.
    let input: InputSource?
    /// `--if` expressions: the update applies only when the stored record matches all of them.
    let conditions: [String]
    /// `--concurrency`, `--rejects`.
    var bulk = BulkSettings()
    /// `--fields` paths; nil selects every field.
    var fields: [String]? = nil
    /// `--expected-version`: the `_version` to send instead of reading it first (conflict detection).
    var expectedVersion: Int? = nil
}

/// Changes fields of one record.
enum UpdateCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "update",
        traits: [.printsRecords],
        abstract: "Change fields of one record and print the updated record.",
        synopsis: [
            """
            MODEL (--id VALUE | --key FIELD=VALUE...) [FIELD=VALUE | FIELD:=JSON]... [--input FILE|-] \
            [--if EXPR]... [--expected-version N]
            """,
            "MODEL --input FILE|- [FIELD=VALUE | FIELD:=JSON]... [--concurrency N] [--rejects FILE] [--fields A,B,…]",
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Only the fields given change. With --if, the update is applied only when the stored \
                    record matches every condition; otherwise the server reports a failed condition \
                    and nothing changes. If no record has that key, gqlc exits with status 4.
                    """),
                .paragraph(
                    """
                    Without --id or --key, each record in --input carries its own key, and FIELD=VALUE \
                    arguments apply to every record: a bulk job (see Bulk).
                    """),
            ]),
            SharedOptions.fieldValuesHelp,
            BulkOptions.help(for: .update),
        ],
        arguments: [SharedOptions.model, SharedOptions.assignments, SharedOptions.jsonAssignments],
        options: [
            SharedOptions.id, SharedOptions.key, BulkOptions.input, SharedOptions.condition, SharedOptions.recordFields,
            BulkOptions.concurrency, BulkOptions.rejects, SharedOptions.expectedVersion,
        ],
        examples: [
            Example("Publish post p1 if it is still a draft", "gqlc update Post --id p1 status=PUBLISHED --if status=DRAFT"),
            Example("Clear a post's rating and set its view count", "gqlc update Post --id p1 rating=null views=100"),
            Example(
                "Apply changes from a file to an item with a composite key",
                "gqlc update InventoryItem --key sku=A1 --key warehouseId=W1 --key bin=3 \\\n    --input -"),
            Example(
                "Archive posts saved by 'gqlc list Post --output ndjson' (each has its key)",
                "gqlc update Post --input drafts.ndjson status=ARCHIVED"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> UpdateInvocation {
        let model = try SharedOptions.modelName(arguments)
        let input = SharedOptions.inputSource(arguments)
        let picksRecord = arguments.options.contains(SharedOptions.id) || arguments.options.contains(SharedOptions.key)
        // With --input and no --id/--key, every record in the input carries its key.
        let record = input != nil && !picksRecord ? nil : try SharedOptions.recordSelector(arguments)
        let assignments = Array(arguments.positionals.dropFirst())
        guard !assignments.isEmpty || input != nil else {
            throw UsageError("nothing to update: give FIELD=VALUE arguments or --input FILE")
        }
        if record == nil, arguments.options.contains(SharedOptions.condition) {
            throw UsageError("option '--if' needs --id or --key: it is the condition of one update")
        }
        return UpdateInvocation(
            model: model, record: record, assignments: assignments, input: input,
            conditions: try SharedOptions.conditions(arguments), bulk: try BulkOptions.settings(arguments),
            fields: try SharedOptions.fieldPaths(arguments),
            expectedVersion: try SharedOptions.expectedVersion(arguments, oneRecord: record != nil))
    }
}

extension UpdateCommand {
    static func writes(_ invocation: UpdateInvocation) -> String? { "update \(invocation.model) records" }
}
