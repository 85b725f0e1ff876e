import GQLCore

/// `gqlc raw [FILE|-] [--query TEXT] [--vars FILE|-] [--var NAME=VALUE]... [--var NAME:=JSON]...
/// [--operation-name NAME] [--decode-path A.B]`
struct RawInvocation: Equatable, Sendable {
    let document: DocumentSource
    /// A JSON object of variables.
    let variablesFile: InputSource?
    /// `--var` values; they override the same names from `variablesFile`.
    let variables: [String]
    let operationName: String?
    /// Field names leading from `data` to the value to print (empty prints all of `data`).
    let decodePath: [String]
}

/// Where the GraphQL document of `raw` comes from.
enum DocumentSource: Equatable, Sendable {
    case file(InputSource)
    /// `--query TEXT`.
    case text(String)
    /// Neither: standard input when it is not a terminal (`gqlc raw < query.graphql`).
    case pipedStandardInput
}

/// Sends any GraphQL document, to any GraphQL server.
enum RawCommand: CommandDefinition {
    static let query = OptionSpec(long: "query", value: "TEXT", help: "The GraphQL document itself.")
    static let vars = OptionSpec(
        long: "vars", value: "FILE|-", help: "Read variables from a JSON object in FILE, or '-' for standard input.")
    static let variable = OptionSpec(
        long: "var", value: "NAME=VALUE", repeatable: true,
        help: "Set variable NAME to the string VALUE, or write NAME:=JSON for a JSON value; overrides --vars.")
    static let operationName = OptionSpec(
        long: "operation-name", value: "NAME", help: "The operation to run when the document has several.")
    static let decodePath = OptionSpec(
        long: "decode-path", value: "A.B",
        help: "Print only the value at this dot path inside data, e.g. listPosts.items.")
    static let documentArgument = ArgumentSpec(
        name: "FILE|-", help: "A file holding the GraphQL document, or '-' to read it from standard input.")

    static let spec = CommandSpec(
        name: "raw",
        traits: [.printsRecords],
        abstract: "Send any GraphQL document and print the result.",
        synopsis: [
            """
            [FILE|-] [--query TEXT] [--vars FILE|-] [--var NAME=VALUE]... [--var NAME:=JSON]... \
            [--operation-name NAME] [--decode-path A.B]
            """
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Give the document in exactly one way: FILE, '-' for standard input, or --query; \
                    without any of them, a pipe or file on standard input is read. A variable the \
                    operation does not declare is sent with a warning (servers ignore it). \
                    raw needs no model schema, so it works with any GraphQL server; the endpoint \
                    comes from --endpoint, $GQLC_ENDPOINT or the schema file. The document is \
                    parsed and checked before it is sent; an error shows its line and column. \
                    The result is data, or with --decode-path the value inside it; --raw-response \
                    prints the whole response instead, and --decode-path then only decides the \
                    exit status. --output table or tsv prints a list of records (the value at \
                    --decode-path) with their keys as columns; raw prints each value on a line, strings \
                    unquoted.
                    """),
            ])
        ],
        arguments: [documentArgument],
        options: [query, vars, variable, operationName, decodePath],
        examples: [
            Example("Run the query in a file with variables from another", "gqlc raw query.graphql --vars vars.json"),
            Example(
                "An inline query with one variable",
                "gqlc raw --query 'query ($id: ID!) { getPost(id: $id) { title } }' \\\n    --var id=p1"),
            Example(
                "Pick one operation from standard input and print only the items",
                "cat ops.graphql | gqlc raw - --operation-name ListPosts \\\n    --decode-path listPosts.items"),
        ])

    /// The error for a run without a document (and no pipe to read one from).
    static let missingDocument = "'raw' needs a document: a FILE, '-' for standard input (or a pipe), or --query TEXT"

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> RawInvocation {
        try arguments.expectNoPositionals(after: 1)
        let options = arguments.options
        let document: DocumentSource
        switch (arguments.optional(at: 0), options.value(query)) {
        case (let path?, nil):
            document = .file(InputSource(argument: path))
        case (nil, let text?):
            guard !text.trimmingWhitespace.isEmpty else {
                throw UsageError("option '--query' needs a non-empty GraphQL document")
            }
            document = .text(text)
        case (_?, _?):
            throw UsageError("give the document once: a FILE argument or --query, not both")
        case (nil, nil):
            document = .pipedStandardInput
        }
        let variablesFile = options.value(vars).map(InputSource.init(argument:))
        if document == .pipedStandardInput, variablesFile == .standardInput {
            throw UsageError(missingDocument)
        }
        if document == .file(.standardInput), variablesFile == .standardInput {
            throw UsageError("standard input can be read once: '-' is given for both the document and --vars")
        }
        return RawInvocation(
            document: document, variablesFile: variablesFile,
            variables: options.values(variable),
            operationName: try options.value(operationName).map(checkedOperationName),
            decodePath: try options.value(decodePath).map(parseDecodePath) ?? [])
    }

    private static func checkedOperationName(_ name: String) throws(UsageError) -> String {
        guard GraphQLName.isValid(name) else {
            throw ValueParsing.invalid(name, for: operationName, expected: "a GraphQL name such as ListPosts")
        }
        return name
    }

    private static func parseDecodePath(_ text: String) throws(UsageError) -> [String] {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.allSatisfy({ GraphQLName.isValid($0) }) else {
            throw ValueParsing.invalid(text, for: decodePath, expected: "field names joined by dots, e.g. listPosts.items")
        }
        return components
    }
}
