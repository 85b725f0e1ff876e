/// A Model Context Protocol server for a model schema: the lifecycle (`initialize`, `notifications/initialized`,
/// `ping`), tools (`tools/list`, `tools/call`) and resources (`resources/list`, `resources/read`) of MCP
/// revisions 2025-06-18 and 2025-11-25, over JSON-RPC 2.0 messages one per line.
///
/// It reads and writes no stream itself: the front end hands it each line read and writes back what it returns.
///
/// ```swift
/// var server = MCPServer(schema: schema, configuration: configuration) { model throws(MCPToolError) in client }
/// if let reply = server.handle(line) { write(reply + "\n") }
/// ```
public struct MCPServer {
    /// The revisions this server speaks, newest first: an `initialize` asking for another gets the newest.
    public static let protocolVersions = ["2025-11-25", "2025-06-18"]

    /// What it offers and allows: its version, the models, whether writes are allowed, the list and result limits.
    public let configuration: MCPConfiguration
    private var toolbox: MCPToolbox
    private let catalog: MCPToolCatalog
    /// The revision agreed in `initialize`; nil before it.
    public private(set) var protocolVersion: String?

    /// A server for `schema` as `configuration` allows; `clientFor` gives the client each request is sent with.
    public init(schema: ModelSchema, configuration: MCPConfiguration, clientFor: @escaping MCPClientProvider) {
        self.configuration = configuration
        self.toolbox = MCPToolbox(schema: schema, configuration: configuration, clientFor: clientFor)
        self.catalog = MCPToolCatalog(schema: schema, configuration: configuration)
    }

    /// The reply to one line from the client, as one line of compact JSON with every known secret scrubbed; nil when
    /// nothing is to be sent (a notification, a response, a blank line).
    public mutating func handle(_ line: [UInt8]) -> String? {
        guard line.contains(where: { !Self.isBlank($0) }) else { return nil }
        let reply: JSONValue?
        switch JSONRPC.decode(line) {
        case .failure(let failure):
            reply = JSONRPC.errorResponse(id: failure.id, error: failure.error)
        case .success(.response), .success(.notification):
            // `notifications/initialized`, `notifications/cancelled` (calls are answered in order, each at once)
            // and any other notification need no answer.
            reply = nil
        case .success(.request(let id, let method, let params)):
            do {
                reply = JSONRPC.response(id: id, result: try answer(method, params))
            } catch {
                reply = JSONRPC.errorResponse(id: id, error: error)
            }
        }
        return reply.map { toolbox.redactor.scrub($0.serialized(.compact)) }
    }

    /// The result of a request, or its JSON-RPC error.
    private mutating func answer(_ method: String, _ params: JSONObject) throws(JSONRPC.ErrorObject) -> JSONValue {
        switch method {
        case "initialize": return try initialize(params)
        case "ping": return .object([:])
        default: break
        }
        guard protocolVersion != nil else {
            throw JSONRPC.ErrorObject.invalidRequest("the session is not initialized: send initialize first")
        }
        switch method {
        case "tools/list": return ["tools": catalog.listing]
        case "tools/call": return try callTool(params)
        case "resources/list": return ["resources": .array(MCPResources(schema: toolbox.schema, configuration: configuration).listing)]
        case "resources/templates/list": return ["resourceTemplates": []]
        case "resources/read":
            guard case .string(let uri)? = params["uri"] else { throw .invalidParams("resources/read needs 'uri', a string") }
            return try MCPResources(schema: toolbox.schema, configuration: configuration).read(uri)
        default: throw .methodNotFound(method)
        }
    }

    private mutating func initialize(_ params: JSONObject) throws(JSONRPC.ErrorObject) -> JSONValue {
        guard case .string(let asked)? = params["protocolVersion"] else {
            throw .invalidParams("initialize needs 'protocolVersion', a string")
        }
        let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
        protocolVersion = version
        let writes = configuration.allowWrites
            ? "Writes are on: create_record, update_record and delete_record change one record each."
            : "Read-only: no tool changes data."
        return [
            "protocolVersion": .string(version),
            "capabilities": [
                "tools": ["listChanged": false],
                "resources": ["subscribe": false, "listChanged": false],
            ],
            "serverInfo": ["name": "gqlc", "title": "gqlc", "version": .string(configuration.serverVersion)],
            "instructions": .string(
                "gqlc serves the records of an AWS AppSync (Amplify) API: models "
                    + configuration.models.joined(separator: ", ") + ". describe_model gives a model's fields, key and "
                    + "indexes; list_records takes gqlc where expressions such as \"rating>=4\". \(writes)"),
        ]
    }

    private mutating func callTool(_ params: JSONObject) throws(JSONRPC.ErrorObject) -> JSONValue {
        guard case .string(let name)? = params["name"] else { throw .invalidParams("tools/call needs 'name', a string") }
        let arguments: JSONObject
        switch params["arguments"] {
        case nil, .null?: arguments = JSONObject()
        case .object(let given)?: arguments = given
        default: throw .invalidParams("tools/call: 'arguments' must be an object")
        }
        guard let tool = MCPToolName(rawValue: name), catalog.offered.contains(tool) || tool.writes else {
            let names = catalog.offered.map(\.rawValue)
            throw .invalidParams("unknown tool '\(name)'" + Suggestions.didYouMean(name, in: names))
        }
        guard !tool.writes || configuration.allowWrites else {
            return Self.toolError("\(name) changes data, and this server is read-only: \(configuration.enableWritesAdvice)")
        }
        do {
            let output = try toolbox.call(tool, arguments)
            let structured = JSONValue.object(output.structured)
            return [
                // The summary, then the same JSON as text for clients that show no structured content.
                "content": [
                    ["type": "text", "text": .string(output.summary)],
                    ["type": "text", "text": .string(structured.serialized(.compact))],
                ],
                "structuredContent": structured,
                "isError": false,
            ]
        } catch {
            return Self.toolError(error.message)
        }
    }

    /// A tool's failure: a result with `isError`, its text one line.
    private static func toolError(_ message: String) -> JSONValue {
        [
            "content": [["type": "text", "text": .string(message.oneLine(lineBreaks: .spaces))]],
            "isError": true,
        ]
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}

extension MCPServer {
    /// Answers each line of `input` until it ends, or until `write` (given each reply with its line break) says the
    /// output is closed.
    public mutating func serve(_ input: inout LineReader, write: ([UInt8]) -> Bool) {
        while let line = input.next() {
            guard let reply = handle(line) else { continue }
            guard write(Array((reply + "\n").utf8)) else { return }
        }
    }
}
