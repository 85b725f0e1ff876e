import GQLCore

/// `gqlc schema pull [--out FILE]` and `gqlc schema print`
struct SchemaInvocation: Equatable, Sendable {
    enum Action: String, Choice {
        case pull
        case print
    }

    let action: Action
    /// Where `pull` writes the model schema; nil caches it for the endpoint.
    let out: String?
}

/// Reads the live API's schema by introspection.
enum SchemaCommand: CommandDefinition {
    static let out = OptionSpec(
        long: "out", value: "FILE", help: "Write the derived model schema to FILE ('-' for standard output) instead of gqlc's cache for the endpoint.")

    static let spec = CommandSpec(
        name: "schema",
        abstract: "Pull the API's models by introspection, or print its SDL.",
        synopsis: ["pull [--out FILE]", "print"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    pull sends the standard introspection query to the endpoint (with the usual auth) and \
                    derives the models by the Amplify transformer's conventions: get/list/create/update/delete \
                    and onCreate/onUpdate/onDelete fields, Model…Connection types, key arguments, index query \
                    fields, and relationship fields with their foreign keys. It writes a model-introspection \
                    file to --out, or caches it under $XDG_CACHE_HOME/gqlc (else ~/.cache/gqlc), keyed by the \
                    endpoint; gqlc then uses the cache when no schema file is found, or when the file it finds \
                    (aws-exports.js) has no models. The summary on standard error lists the models and what \
                    introspection could not tell (auth rules, index names, which side of a one-to-one pair \
                    holds @hasOne), as it was assumed.
                    """),
                .paragraph("print writes the API's schema as SDL to standard output."),
            ])
        ],
        arguments: [ArgumentSpec(name: "ACTION", help: "\(SchemaInvocation.Action.alternatives).")],
        options: [out],
        examples: [
            Example("Pull and cache the models of an API you only have a URL and key for",
                    "gqlc schema pull --endpoint https://api.example.com/graphql --api-key KEY"),
            Example("Save them as a file to pass to --schema", "gqlc schema pull --out model-introspection.json"),
            Example("The API's SDL, as the server has it", "gqlc schema print"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> SchemaInvocation {
        try arguments.expectNoPositionals(after: 1)
        let action = try SchemaInvocation.Action.positional(arguments, at: 0, naming: "an action")
        let out = arguments.options.value(Self.out)
        if out != nil, action == .print {
            throw UsageError("'\(Self.out.flagName)' is for 'schema pull'; 'schema print' writes to standard output")
        }
        return SchemaInvocation(action: action, out: out)
    }

    static func run(_ invocation: SchemaInvocation, in context: RunContext) -> ExitCode {
        SchemaRunner(session: context.session, diagnostics: context.diagnostics).run(invocation)
    }
}
