import GQLCore

/// `gqlc query NAME [ARG=VALUE | ARG:=JSON]... [--input FILE|-] [--include PATH]... [--no-follow]`, and `mutate`.
struct CustomOperationInvocation: Equatable, Sendable {
    let kind: CustomOperation.Kind
    /// The operation's name (`echo`, `likePost`).
    let name: String
    /// Argument values from the command line; they override `input`'s members.
    let assignments: [String]
    /// A JSON object of argument values to start from.
    let input: InputSource?
    /// Associations to include, for an operation that returns a model.
    let includes: [String]
    let followIncludedLists: Bool
    /// `--fields` paths into a model or embedded result; nil selects every field.
    var fields: [String]? = nil
}

/// What `query` and `mutate` share: their arguments, options, help and decoding.
enum CustomOperationCommand {
    static let name = ArgumentSpec(
        name: "NAME", help: "The custom operation's name as the schema spells it, e.g. echo; 'gqlc models' lists them with their arguments.")
    static let assignments = ArgumentSpec(
        name: "ARG=VALUE", help: "Set argument ARG to VALUE, converted by its type (the word null means null).")
    static let jsonAssignments = ArgumentSpec(
        name: "ARG:=JSON", help: "Set argument ARG to a JSON value as given: ids:='[\"p1\",\"p2\"]', filter:='{…}'.")
    static let input = OptionSpec(
        long: "input", value: "FILE|-", help: "Read argument values from a JSON object in FILE, or '-' for standard input.")

    static let include = OptionSpec(
        long: "include", value: "PATH", repeatable: true,
        help: "Also fetch an association of the model the operation returns, named by a dot path: comments, blog, comments.post.").completing(.include)

    static let synopsis =
        "NAME [ARG=VALUE | ARG:=JSON]... [--input FILE|-] [--include PATH]... [--fields A,B,…] [--no-follow]"

    /// The help paragraphs both commands print.
    static func discussion(_ kind: CustomOperation.Kind) -> [HelpSection] {
        [
            HelpSection([
                .paragraph(
                    """
                    Runs one of the schema's custom \(kind.rawValue == "query" ? "queries" : "mutations") (a.\(kind.rawValue)() \
                    in an Amplify Gen 2 schema), with arguments checked against their types before \
                    anything is sent, and prints its result as get prints a record. The result selects \
                    all of its fields: a model its fields as get selects them (--include adds \
                    associations), an embedded type all of its fields, level by level; a scalar or a \
                    list of scalars is printed as it is. --fields narrows a model or embedded result, as \
                    in get. --output raw prints a scalar result (or each of a list) unquoted, as jq -r \
                    does, and one field of a record given with --fields; table and tsv print records.
                    """),
            ]),
            HelpSection("Argument values", [
                .paragraph(
                    """
                    ARG=VALUE converts VALUE by the argument's type: Int and Float arguments take \
                    numbers, Boolean ones true or false, enum ones a value name, and every one takes \
                    null. ARG:=JSON takes a JSON value as it is, for lists and input objects. \
                    --input reads a JSON object of arguments; ARG=VALUE overrides its members. An \
                    unknown argument, or a required one missing, is refused before sending (status 2).
                    """),
            ]),
        ]
    }

    static func invocation(_ kind: CustomOperation.Kind, from arguments: CommandArguments) throws(UsageError) -> CustomOperationInvocation {
        let operation = try arguments.required(name, at: 0)
        guard GraphQLName.isValid(operation) else {
            throw UsageError("invalid \(kind.rawValue) name '\(operation)': expected a GraphQL field name such as 'echo'")
        }
        return CustomOperationInvocation(
            kind: kind, name: operation, assignments: Array(arguments.positionals.dropFirst()),
            input: arguments.options.value(input).map(InputSource.init(argument:)),
            includes: arguments.options.values(include),
            followIncludedLists: !arguments.options.contains(SharedOptions.noFollow),
            fields: try SharedOptions.fieldPaths(arguments))
    }

    static let options = [input, include, SharedOptions.fields, SharedOptions.noFollow]
}

/// Runs a custom query.
enum QueryCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "query",
        traits: [.printsRecords],
        abstract: "Run one of the schema's custom queries and print its result.",
        synopsis: [CustomOperationCommand.synopsis],
        discussion: CustomOperationCommand.discussion(.query),
        arguments: [CustomOperationCommand.name, CustomOperationCommand.assignments, CustomOperationCommand.jsonAssignments],
        options: CustomOperationCommand.options,
        examples: [
            Example("Echo a string through a custom query", "gqlc query echo argumentContent=hello"),
            Example("Arguments from a JSON file, one of them overridden", "gqlc query echoNestedCustomTypes --input args.json input=hi"),
            Example("A custom query that returns a model, with its comments", "gqlc query featuredPost --include comments"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> CustomOperationInvocation {
        try CustomOperationCommand.invocation(.query, from: arguments)
    }
}

/// Runs a custom mutation.
enum MutateCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "mutate",
        traits: [.printsRecords],
        abstract: "Run one of the schema's custom mutations and print its result.",
        synopsis: [CustomOperationCommand.synopsis],
        discussion: CustomOperationCommand.discussion(.mutation) + [
            HelpSection([
                .paragraph(
                    """
                    A custom mutation is sent once: it is not retried after a timeout or a lost \
                    connection, even with --retry-mutations, since gqlc cannot know whether repeating it is safe.
                    """),
            ]),
        ],
        arguments: [CustomOperationCommand.name, CustomOperationCommand.assignments, CustomOperationCommand.jsonAssignments],
        options: CustomOperationCommand.options,
        examples: [
            Example("Like post p1", "gqlc mutate likePost postId=p1"),
            Example("A list argument, given as JSON", "gqlc mutate likePostReturnPost postId:='[\"p1\"]'"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> CustomOperationInvocation {
        try CustomOperationCommand.invocation(.mutation, from: arguments)
    }
}

extension MutateCommand {
    static func writes(_ invocation: CustomOperationInvocation) -> String? { "run the mutation \(invocation.name)" }
}
