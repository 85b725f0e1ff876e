/// `gqlc delete MODEL (--id VALUE | --key FIELD=VALUE...) [--if EXPR]...`
struct DeleteInvocation: Equatable, Sendable {
    let model: String
    let record: RecordSelector
    /// `--if` expressions: the delete applies only when the stored record matches all of them.
    let conditions: [String]
}

/// Deletes one record.
enum DeleteCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete one record and print it as it was.",
        synopsis: ["MODEL (--id VALUE | --key FIELD=VALUE...) [--if EXPR]..."],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    With --if, the record is deleted only when it matches every condition. Related \
                    records (such as a post's comments) are not deleted. If no record has that key, \
                    gqlc exits with status 4.
                    """),
            ])
        ],
        arguments: [SharedOptions.model],
        options: [SharedOptions.id, SharedOptions.key, SharedOptions.condition],
        examples: [
            Example("Delete comment c1", "gqlc delete Comment --id c1"),
            Example("Delete post p1 only if it was never published", "gqlc delete Post --id p1 --if status=DRAFT"),
            Example(
                "Delete an item by its composite key",
                "gqlc delete InventoryItem --key sku=A1 --key warehouseId=W1 --key bin=3"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> DeleteInvocation {
        let model = try SharedOptions.modelName(arguments)
        try arguments.expectNoPositionals(after: 1)
        return DeleteInvocation(
            model: model, record: try SharedOptions.recordSelector(arguments),
            conditions: try SharedOptions.conditions(arguments))
    }
}
