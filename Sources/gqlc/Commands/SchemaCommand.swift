import GQLCore

/// `gqlc schema pull [--out FILE]` and `gqlc schema print`
struct SchemaInvocation: Equatable, Sendable {
    enum Action: String, Choice {
        case pull
        case print
    }

    /// What `print` prints.
    enum Format: String, Choice {
        /// The live API's SDL, by introspection.
        case sdl
        /// The model introspection gqlc derives from the schema it was given (SDL, pulled, aws-exports.js); nothing
        /// is sent.
        case introspection
    }

    let action: Action
    /// Where `pull` writes the model schema; nil caches it for the endpoint.
    let out: String?
    var format: Format = .sdl
}

/// Reads the live API's schema by introspection.
enum SchemaCommand: CommandDefinition {
    static let format = OptionSpec(
        long: "format", value: SchemaInvocation.Format.placeholder, default: SchemaInvocation.Format.sdl.word,
        help: "What print prints: sdl, the API's SDL by introspection; introspection, the model-introspection JSON gqlc "
            + "derives from the schema it was given (--schema or the one it finds), without sending anything.")
    static let out = OptionSpec(
        long: "out", value: "FILE", help: "Write the derived model schema to FILE ('-' for standard output) instead of gqlc's cache for the endpoint.")

    static let spec = CommandSpec(
        name: "schema",
        abstract: "Pull the API's models by introspection, or print its SDL.",
        synopsis: ["pull [--out FILE]", "print [--format sdl|introspection]"],
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
                .paragraph(
                    """
                    print writes the API's schema as SDL to standard output; with --format introspection it \
                    writes the model introspection (MIS) gqlc derives from the schema it was given, an @model \
                    schema.graphql, a pulled schema or aws-exports.js, as Amplify's codegen writes it: what \
                    appsync-local and the Amplify libraries read.
                    """),
            ])
        ],
        arguments: [ArgumentSpec(name: "ACTION", help: "\(SchemaInvocation.Action.alternatives).")],
        options: [out, format],
        examples: [
            Example("Pull and cache the models of an API you only have a URL and key for",
                    "gqlc schema pull --endpoint https://api.example.com/graphql --api-key KEY"),
            Example("Save them as a file to pass to --schema", "gqlc schema pull --out model-introspection.json"),
            Example("The API's SDL, as the server has it", "gqlc schema print"),
            Example(
                "The model introspection of a Gen 1 project's @model schema",
                "gqlc schema print --format introspection \\\n    --schema amplify/backend/api/blog/schema.graphql"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> SchemaInvocation {
        try arguments.expectNoPositionals(after: 1)
        let action = try SchemaInvocation.Action.positional(arguments, at: 0, naming: "an action")
        let out = arguments.options.value(Self.out)
        if out != nil, action == .print {
            throw UsageError("'\(Self.out.flagName)' is for 'schema pull'; 'schema print' writes to standard output")
        }
        var format = SchemaInvocation.Format.sdl
        if let text = arguments.options.value(Self.format) {
            guard action == .print else {
                throw UsageError("'\(Self.format.flagName)' is for 'schema print'; 'schema pull' writes model introspection")
            }
            format = try SchemaInvocation.Format.value(text, for: Self.format)
        }
        return SchemaInvocation(action: action, out: out, format: format)
    }

    static func run(_ invocation: SchemaInvocation, in context: RunContext) -> ExitCode {
        SchemaRunner(session: context.session, diagnostics: context.diagnostics).run(invocation)
    }
}
