/// `gqlc get MODEL (--id VALUE | --key FIELD=VALUE...) [--include PATH]... [--no-follow]`
struct GetInvocation: Equatable, Sendable {
    let model: String
    let record: RecordSelector
    let includes: [String]
    /// `--fields` paths; nil selects every field.
    var fields: [String]? = nil
    /// Whether included has-many lists are paged to the end (false with `--no-follow`: first page only).
    let followIncludedLists: Bool
    /// `--include-deleted`: print a soft-deleted record instead of exiting 4.
    var includeDeleted = false
}

/// Fetches one record by its primary key.
enum GetCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "get",
        traits: [.printsRecords],
        abstract: "Fetch one record by its primary key and print it as JSON.",
        synopsis: ["MODEL (--id VALUE | --key FIELD=VALUE...) [--include PATH]... [--fields A,B,…] [--no-follow] [--include-deleted]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Give --id for a model whose primary key is one field, or one --key per field of a \
                    composite key. --include adds associations: a has-many list, a belongs-to or \
                    has-one record, or a path through them. Included lists are fetched page by page \
                    to the end unless --no-follow is given. If no record has that key, gqlc exits \
                    with status 4; so it does for a soft-deleted record of a model with conflict detection \
                    (a Gen 1 DataStore API), unless --include-deleted is given.
                    """),
            ])
        ],
        arguments: [SharedOptions.model],
        options: [SharedOptions.id, SharedOptions.key, SharedOptions.include, SharedOptions.fields, SharedOptions.noFollow,
                  SharedOptions.includeDeleted],
        examples: [
            Example("Fetch a post and all of its comments", "gqlc get Post --id p1 --include comments"),
            Example(
                "Fetch an item by its three-field key",
                "gqlc get InventoryItem --key sku=A1 --key warehouseId=W1 --key bin=3"),
            Example("A post's title and its comments' text", "gqlc get Post --id p1 --include comments \\\n    --fields title,comments.items.content"),
            Example(
                "Fetch a comment, its post and the first page of the post's comments",
                "gqlc get Comment --id c1 --include post.comments --no-follow"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> GetInvocation {
        let model = try SharedOptions.modelName(arguments)
        try arguments.expectNoPositionals(after: 1)
        return GetInvocation(
            model: model, record: try SharedOptions.recordSelector(arguments),
            includes: try SharedOptions.includes(arguments), fields: try SharedOptions.fieldPaths(arguments),
            followIncludedLists: !arguments.options.contains(SharedOptions.noFollow),
            includeDeleted: arguments.options.contains(SharedOptions.includeDeleted))
    }
}
