/// What an MCP server serves and how: chosen by the front end, checked against the schema once.
public struct MCPConfiguration: Sendable {
    /// The name and version the server reports in `initialize`.
    public var serverVersion: String
    /// Whether the write tools (create, update, delete, custom mutations) are offered.
    public var allowWrites: Bool
    /// The models served, sorted; every model of the schema unless the front end narrowed them.
    public var models: [String]
    /// Records a `list_records` call returns when it gives no `limit`.
    public var listLimit = Defaults.mcpListLimit
    /// The largest `limit` a `list_records` call may ask for.
    public var listLimitCap = Defaults.mcpListLimitCap
    /// The size, in bytes of compact JSON, above which a list result is cut at a record boundary.
    public var maxResultBytes = Defaults.mcpResultBytes
    /// Whether a create may be retried after a network failure (its key makes a second try safe).
    public var retryCreates = false
    /// Names the settings an error may mention (`timeout`, `API key`) the way the front end sets them.
    public var settingName: @Sendable (Parameter) -> String = { $0.label }
    /// How the user turns writes on, said when a write tool is called without them (`restart with …`).
    public var enableWritesAdvice = "the server was started read-only"

    /// - Parameter models: the models to serve; nil serves every model of `schema`.
    /// - Throws: a name that is not a model of `schema`, with the closest one.
    public init(schema: ModelSchema, models: [String]?, allowWrites: Bool, serverVersion: String) throws(RequestBuildError) {
        let builder = RequestBuilder(schema: schema)
        var served: [String] = []
        for name in models ?? schema.modelNames {
            _ = try builder.model(named: name)
            if !served.contains(name) { served.append(name) }
        }
        self.models = served.sorted()
        self.allowWrites = allowWrites
        self.serverVersion = serverVersion
    }
}

extension MCPConfiguration {
    /// What the server serves, said when it starts: `serving 2 models on stdio, read-only`.
    public var servingNote: String {
        "serving \(models.count) model\(models.count == 1 ? "" : "s") on stdio, " + (allowWrites ? "writes allowed" : "read-only")
    }
}
