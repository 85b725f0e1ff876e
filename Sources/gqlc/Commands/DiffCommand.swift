import GQLCore

/// `gqlc diff [MODEL…] --from ENV|DIR --to ENV|DIR [--ignore FIELD]… [--fields A,B]`
struct DiffInvocation: Equatable, Sendable {
    let from: String
    let to: String
    let models: [String]
    let ignore: [String]
    let fields: [String]?
}

/// Compares records by primary key between two environments or snapshot directories.
enum DiffCommand: CommandDefinition {
    static let from = OptionSpec(long: "from", value: "ENV|DIR", help: "One side: a named environment or a snapshot directory.")
    static let to = OptionSpec(long: "to", value: "ENV|DIR", help: "The other side: a named environment or a snapshot directory.")
    static let ignore = OptionSpec(long: "ignore", value: "FIELD", repeatable: true, help: "Do not compare FIELD (besides the implicit timestamps, __typename, _version and _lastChangedAt).")

    static let spec = CommandSpec(
        name: "diff",
        abstract: "Compare records by primary key between environments or snapshots.",
        synopsis: ["[MODEL]... --from ENV|DIR --to ENV|DIR [--ignore FIELD]... [--fields A,B,…]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Reports each record only in --to (added), only in --from (removed), or in both with \
                    different values (changed, with the fields that differ). createdAt, updatedAt, \
                    __typename, _version, _lastChangedAt and _deleted are not compared, nor relationship \
                    fields (their foreign keys are); --ignore adds fields and --fields limits the comparison \
                    to the fields named. A side is a snapshot directory when it holds a manifest.json, else a \
                    named environment.
                    """),
                .paragraph(
                    """
                    Text output prints a summary line per model ('Post: 1 added, 1 removed, 1 changed'), \
                    then, after a blank line, '+ Post id=p9', '- Post id=p1' and '~ Post id=p2: title, views', \
                    coloured (added green, removed red, changed yellow) when colour is on (--color). \
                    --output ndjson prints one JSON object per difference, {"op", "model", "key", "fields", \
                    "from", "to"}, and the summary on standard error. Memory grows by about 50 bytes per record \
                    of a model (two 64-bit hashes in an index) plus the changed records, not with the size of \
                    the records.
                    """),
                .paragraph(
                    """
                    Exit status: 0 when the sides are the same, 8 when they differ, 2 for bad arguments. A side \
                    that cannot be read stops the comparison with the status a listing gives for the same \
                    failure: 5 HTTP error or refused credentials, 6 network, 1 GraphQL errors or an unreadable \
                    snapshot, 3 partial, 130 interrupted.
                    """),
            ])
        ],
        arguments: [ArgumentSpec(name: "MODEL", help: "Only these models (default: every model).")],
        options: [from, to, ignore, SharedOptions.fields],
        examples: [
            Example("What changed in prod since Monday's snapshot", "gqlc diff --from snapshot-monday --to prod"),
            Example("Posts only, for a script", "gqlc diff Post --from dev --to staging --output ndjson"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> DiffInvocation {
        let options = arguments.options
        guard let source = options.value(from), let target = options.value(to) else {
            throw UsageError("diff needs --from and --to; usage: \(spec.usageLine)")
        }
        let models = try SharedOptions.modelNames(arguments)
        return DiffInvocation(
            from: source, to: target, models: models, ignore: options.values(ignore),
            fields: try SharedOptions.fieldPaths(arguments))
    }

    static func run(_ invocation: DiffInvocation, in context: RunContext) -> ExitCode {
        DiffRunner(context: context).run(invocation)
    }
}
