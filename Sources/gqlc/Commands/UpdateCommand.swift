/// `gqlc update MODEL (--id VALUE | --key FIELD=VALUE...) [FIELD=VALUE | FIELD:=JSON]... [--input FILE|-]
/// [--if EXPR]...`
struct UpdateInvocation: Equatable, Sendable {
    let model: String
    let record: RecordSelector
    /// Field values from the command line; they override `input`'s fields.
    let assignments: [String]
    /// A JSON object of field values to apply.
    let input: InputSource?
    /// `--if` expressions: the update applies only when the stored record matches all of them.
    let conditions: [String]
}

/// Changes fields of one record.
enum UpdateCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "update",
        abstract: "Change fields of one record and print the updated record.",
        synopsis: [
            """
            MODEL (--id VALUE | --key FIELD=VALUE...) [FIELD=VALUE | FIELD:=JSON]... [--input FILE|-] \
            [--if EXPR]...
            """
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Only the fields given change. With --if, the update is applied only when the stored \
                    record matches every condition; otherwise the server reports a failed condition \
                    and nothing changes. If no record has that key, gqlc exits with status 4.
                    """),
            ]),
            SharedOptions.fieldValuesHelp,
        ],
        arguments: [SharedOptions.model, SharedOptions.assignments, SharedOptions.jsonAssignments],
        options: [SharedOptions.id, SharedOptions.key, SharedOptions.input, SharedOptions.condition],
        examples: [
            Example("Publish post p1 if it is still a draft", "gqlc update Post --id p1 status=PUBLISHED --if status=DRAFT"),
            Example("Clear a post's rating and set its view count", "gqlc update Post --id p1 rating=null views=100"),
            Example(
                "Apply changes from a file to an item with a composite key",
                "gqlc update InventoryItem --key sku=A1 --key warehouseId=W1 --key bin=3 \\\n    --input -"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> UpdateInvocation {
        let model = try SharedOptions.modelName(arguments)
        let record = try SharedOptions.recordSelector(arguments)
        let assignments = Array(arguments.positionals.dropFirst())
        let input = SharedOptions.inputSource(arguments)
        guard !assignments.isEmpty || input != nil else {
            throw UsageError("nothing to update: give FIELD=VALUE arguments or --input FILE")
        }
        return UpdateInvocation(
            model: model, record: record, assignments: assignments, input: input,
            conditions: try SharedOptions.conditions(arguments))
    }
}
