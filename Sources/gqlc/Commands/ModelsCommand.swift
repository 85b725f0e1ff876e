/// `gqlc models [MODEL]`
struct ModelsInvocation: Equatable, Sendable {
    /// The model to describe; nil lists every model.
    let model: String?
}

/// Shows what the schema defines, without contacting the server.
enum ModelsCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "models",
        abstract: "List the schema's models, or describe one model.",
        synopsis: ["[MODEL]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Without MODEL, prints each model's name. With MODEL, prints its fields and their \
                    types, its primary key, associations, secondary indexes and the names of its \
                    GraphQL operations. Reads only the schema file; nothing is sent.
                    """),
            ])
        ],
        arguments: [ArgumentSpec(name: "MODEL", help: "The model to describe, e.g. Post.")],
        examples: [
            Example("Every model in ./amplify_outputs.json", "gqlc models"),
            Example("Post's fields, key, associations, indexes and operations", "gqlc models Post"),
            Example("The models of another schema file", "gqlc models --schema schema-examples/blog.json"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> ModelsInvocation {
        try arguments.expectNoPositionals(after: 1)
        guard arguments.optional(at: 0) != nil else { return ModelsInvocation(model: nil) }
        return ModelsInvocation(model: try SharedOptions.modelName(arguments))
    }
}
