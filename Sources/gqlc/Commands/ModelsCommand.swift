/// `gqlc models [MODEL]`
struct ModelsInvocation: Equatable, Sendable {
    /// The model to describe; nil lists every model.
    let model: String?
}

/// Shows what the schema defines, without contacting the server.
enum ModelsCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "models",
        abstract: "List the schema's models and types, or describe one model.",
        synopsis: ["[MODEL]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Without MODEL, prints each model's name, one per line, then (after a blank line) the \
                    schema's enums, embedded types, input types and custom queries, mutations and \
                    subscriptions with their signatures (gqlc query and gqlc mutate run them). With \
                    MODEL, prints its fields and their types, its primary key, associations with their \
                    foreign keys, secondary indexes, the names of its GraphQL operations and its auth \
                    rules; with a custom operation's name, its arguments (required ones marked), its \
                    result and the command that runs it. Reads only the schema file; nothing is sent.
                    """),
                .paragraph(
                    """
                    With --output json, prints the same as one JSON document: models (fields and types, \
                    key, associations with their foreign keys, indexes, operations, auth rules), enums, \
                    nonModels, inputs, queries, mutations and subscriptions; with MODEL, that model's (or \
                    operation's) object. \
                    --output ndjson prints one model object per line.
                    """),
            ])
        ],
        arguments: [ArgumentSpec(name: "MODEL", help: "The model to describe, e.g. Post, or a custom operation, e.g. likePost.")],
        examples: [
            Example("Every model in the nearest amplify_outputs.json", "gqlc models"),
            Example("Post's fields, key, associations, indexes, operations and auth rules", "gqlc models Post"),
            Example("The schema as JSON, for scripts", "gqlc models --output json | jq '.models[].name'"),
            Example("The models of another schema file", "gqlc models --schema schema-examples/blog.json"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> ModelsInvocation {
        try arguments.expectNoPositionals(after: 1)
        guard arguments.optional(at: 0) != nil else { return ModelsInvocation(model: nil) }
        return ModelsInvocation(model: try SharedOptions.modelName(arguments))
    }
}
