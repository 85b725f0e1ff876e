import GQLCore

/// `gqlc mcp [--allow-writes] [--models A,B,…] [--max-result-bytes N]`
struct MCPInvocation: Equatable, Sendable {
    /// Whether the write tools are offered.
    let allowWrites: Bool
    /// The models served; nil serves every model.
    let models: [String]?
    /// The size at which a list result is cut.
    let maxResultBytes: Int
}

/// Serves the schema's models to AI assistants over the Model Context Protocol (stdio).
enum MCPCommand: CommandDefinition {
    static let allowWrites = OptionSpec(
        long: "allow-writes",
        help: "Also offer create_record, update_record, delete_record and run_mutation (single records; never bulk or cascade).")
    static let models = OptionSpec(
        long: "models", value: "A,B,…", repeatable: true, help: "Serve only these models (default: every model of the schema).")
    static let maxResultBytes = OptionSpec(
        long: "max-result-bytes", value: "N", default: String(Defaults.mcpResultBytes),
        help: "Cut a list_records result at a record boundary once its records pass N bytes of JSON; its next_token continues it.")

    static let spec = CommandSpec(
        name: "mcp",
        abstract: "Serve the app's data to AI assistants (MCP); read-only by default.",
        synopsis: ["[--allow-writes] [--models A,B,…] [--max-result-bytes N]"],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Runs an MCP server on standard input and output (newline-delimited JSON-RPC 2.0, \
                    MCP revisions 2025-06-18 and 2025-11-25) for an assistant such as Claude Code, \
                    Claude Desktop, Cursor or VS Code to start. Standard output carries only the \
                    protocol; diagnostics go to standard error. The schema, endpoint and auth are \
                    resolved as for every other command (flags, GQLC_* variables, the nearest project \
                    schema), once, when the server starts.
                    """),
                .paragraph(
                    """
                    Tools: list_models, describe_model, get_record, list_records (where expressions, a \
                    filter object, an index, limit default \(Defaults.mcpListLimit) and at most \
                    \(Defaults.mcpListLimitCap), next_token), count_records, and run_query for custom \
                    queries. With --allow-writes also create_record, update_record, delete_record and \
                    run_mutation; without it they are not listed and calling them is refused. Errors are \
                    tool results carrying gqlc's one-line message. Resources: gqlc://schema and \
                    gqlc://models/NAME. API keys and tokens never appear in any result or log line. \
                    See docs/mcp.md for the assistants' configuration.
                    """),
            ])
        ],
        options: [allowWrites, models, maxResultBytes],
        examples: [
            Example("Serve every model, read-only (claude mcp add gqlc -- gqlc mcp registers it)", "gqlc mcp"),
            Example("Serve two models and allow changes to them", "gqlc mcp --models Post,Comment --allow-writes"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> MCPInvocation {
        try arguments.expectNoPositionals(after: 0)
        let names = try ValueParsing.commaSeparated(
            arguments.options.values(models), for: models, item: "model name", example: "Post,Comment")
        return MCPInvocation(
            allowWrites: arguments.options.contains(allowWrites), models: names.isEmpty ? nil : names,
            maxResultBytes: try arguments.options.positiveInteger(maxResultBytes) ?? Defaults.mcpResultBytes)
    }
}
