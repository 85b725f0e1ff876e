import GQLCore

/// `gqlc create MODEL [FIELD=VALUE | FIELD:=JSON]... [--input FILE|-]`
struct CreateInvocation: Equatable, Sendable {
    let model: String
    /// Field values from the command line; they override `input`'s fields.
    let assignments: [String]
    /// A JSON object of field values to start from, or many records for a bulk job.
    let input: InputSource?
    /// `--concurrency`, `--rejects`.
    var bulk = BulkSettings()
    /// `--fields` paths; nil selects every field.
    var fields: [String]? = nil
}

/// Creates a record and prints it as the server stored it.
enum CreateCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "create",
        traits: [.printsRecords],
        abstract: "Create a record from field values and print the created record.",
        synopsis: [
            "MODEL [FIELD=VALUE | FIELD:=JSON]... [--input FILE|-]",
            "MODEL --input FILE|- [FIELD=VALUE | FIELD:=JSON]... [--concurrency N] [--rejects FILE] [--fields A,B,…]",
        ],
        discussion: [SharedOptions.fieldValuesHelp, BulkOptions.help(for: .create)],
        arguments: [SharedOptions.model, SharedOptions.assignments, SharedOptions.jsonAssignments],
        options: [BulkOptions.input, SharedOptions.recordFields, BulkOptions.concurrency, BulkOptions.rejects],
        examples: [
            Example(
                "Create a draft post with two tags",
                "gqlc create Post title='Hello' status=DRAFT tags:='[\"a\",\"b\"]'"),
            Example("Comment on post p1 (sets postId)", "gqlc create Comment post=p1 content='Nice post' likes=0"),
            Example(
                "Create a post from a JSON file, overriding its status",
                "gqlc create Post --input post.json status=PUBLISHED"),
            Example(
                "Re-create posts saved by 'gqlc list Post --output ndjson', 16 at a time",
                "gqlc create Post --input posts.ndjson --concurrency 16 --rejects failed.ndjson"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> CreateInvocation {
        let model = try SharedOptions.modelName(arguments)
        return CreateInvocation(
            model: model,
            assignments: Array(arguments.positionals.dropFirst()),
            input: SharedOptions.inputSource(arguments), bulk: try BulkOptions.settings(arguments),
            fields: try SharedOptions.fieldPaths(arguments))
    }
}

extension CreateCommand {
    static func writes(_ invocation: CreateInvocation) -> String? { "create \(invocation.model) records" }
}
