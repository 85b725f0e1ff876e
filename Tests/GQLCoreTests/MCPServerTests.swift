import Foundation
import Testing
@testable import GQLCore

/// The MCP server's protocol layer, line in and line out, with a scripted transport behind its tools.
@Suite struct MCPServerTests {
    static let schema: ModelSchema = {
        guard let schema = try? SchemaLoader.load(path: TestPaths.example("blog.json")).schema else { fatalError("blog.json") }
        return schema
    }()

    /// A server over blog.json whose requests go to `transport` (none by default: a request is a test failure).
    static func server(
        writes: Bool = false, models: [String]? = nil, maxBytes: Int? = nil, transport: FakeTransport? = nil
    ) throws -> MCPServer {
        var configuration = try MCPConfiguration(schema: schema, models: models, allowWrites: writes, serverVersion: "9.9")
        if let maxBytes { configuration.maxResultBytes = maxBytes }
        configuration.enableWritesAdvice = "restart it with writes"
        let client = try transport.map { try Fixtures.client($0) }
        return MCPServer(schema: schema, configuration: configuration) { _ throws(MCPToolError) in
            guard let client else { throw MCPToolError("no transport in this test") }
            return client
        }
    }

    static func line(_ object: JSONValue) -> [UInt8] { Array(object.serialized(.compact).utf8) }

    static func request(_ id: Int, _ method: String, _ params: JSONValue = [:]) -> [UInt8] {
        line(["jsonrpc": "2.0", "id": .number(JSONNumber(id)), "method": .string(method), "params": params])
    }

    static func initialized(_ server: inout MCPServer, version: String = "2025-11-25") throws -> JSONValue {
        try reply(&server, request(1, "initialize", ["protocolVersion": .string(version), "capabilities": [:],
                                                      "clientInfo": ["name": "t", "version": "1"]]))
    }

    static func reply(_ server: inout MCPServer, _ line: [UInt8]) throws -> JSONValue {
        let reply = server.handle(line)
        let text = try #require(reply)
        #expect(!text.contains("\n"), "one line per message")
        return try JSONValue.parse(text)
    }

    static func call(_ server: inout MCPServer, _ name: String, _ arguments: JSONValue) throws -> JSONValue {
        try reply(&server, request(7, "tools/call", ["name": .string(name), "arguments": arguments]))["result"] ?? .null
    }

    @Test func initializeAnswersTheClientsRevisionWhenSupportedElseTheLatest() throws {
        for (asked, answered) in [("2025-06-18", "2025-06-18"), ("2025-11-25", "2025-11-25"), ("2024-11-05", "2025-11-25"),
                                  ("2099-01-01", "2025-11-25")] {
            var server = try Self.server()
            let reply = try Self.initialized(&server, version: asked)
            #expect(reply["id"] == 1)
            #expect(reply["result"]?["protocolVersion"] == .string(answered))
            #expect(reply["result"]?["serverInfo"]?["version"] == "9.9")
            #expect(reply["result"]?["capabilities"]?["tools"] != nil && reply["result"]?["capabilities"]?["resources"] != nil)
        }
        var server = try Self.server()
        let missing = try Self.reply(&server, Self.request(1, "initialize", [:]))
        #expect(missing["error"]?["code"] == -32602)
    }

    @Test func notificationsAndBlankLinesGetNoReplyAndPingAnswersEmpty() throws {
        var server = try Self.server()
        #expect(server.handle(Array(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8)) == nil)
        #expect(server.handle(Array("   \r".utf8)) == nil)
        #expect(server.handle(Array(#"{"jsonrpc":"2.0","id":5,"result":{}}"#.utf8)) == nil, "a response to us is ignored")
        #expect(try Self.reply(&server, Self.request(3, "ping")) == ["jsonrpc": "2.0", "id": 3, "result": [:]])
    }

    @Test func malformedMessagesGetJSONRPCErrorsAndTheServerGoesOn() throws {
        var server = try Self.server()
        _ = try Self.initialized(&server)
        let cases: [(String, Int, JSONValue)] = [
            (#"{"jsonrpc":"2.0","id":2,"method":"#, -32700, .null),
            (#"[{"jsonrpc":"2.0","id":2,"method":"ping"}]"#, -32600, .null),
            (#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#, -32600, 2),
            (#"{"jsonrpc":"2.0","id":"x","method":7}"#, -32600, "x"),
            (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600, .null),
            (#"{"jsonrpc":"2.0","id":2,"method":"ping","params":[1]}"#, -32602, 2),
            (#"{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage"}"#, -32601, 2),
            (#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"drop_everything"}}"#, -32602, 2),
            (#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"gqlc://models/Nope"}}"#, -32002, 2),
        ]
        for (text, code, id) in cases {
            let reply = try Self.reply(&server, Array(text.utf8))
            #expect(reply["error"]?["code"] == .number(JSONNumber(code)), "\(text)")
            #expect(reply["id"] == id, "\(text)")
        }
        #expect(try Self.reply(&server, Self.request(9, "ping"))["result"] == [:])
    }

    @Test func requestsBeforeInitializeAreRefusedButPingIsAnswered() throws {
        var server = try Self.server()
        #expect(try Self.reply(&server, Self.request(1, "tools/list"))["error"]?["code"] == -32600)
        #expect(try Self.reply(&server, Self.request(2, "ping"))["result"] == [:])
    }

    @Test func writeToolsAreListedOnlyWithWritesAndRefusedWithout() throws {
        var readOnly = try Self.server()
        _ = try Self.initialized(&readOnly)
        let tools = try Self.reply(&readOnly, Self.request(2, "tools/list"))["result"]?["tools"]?.arrayValue ?? []
        let names = tools.compactMap { $0["name"]?.stringValue }
        #expect(names == ["list_models", "describe_model", "get_record", "list_records", "count_records"])
        let refused = try Self.call(&readOnly, "delete_record", ["model": "Post", "key": ["id": "p1"]])
        #expect(refused["isError"] == true)
        #expect(refused["content"]?[0]?["text"] == "delete_record changes data, and this server is read-only: restart it with writes")

        var writable = try Self.server(writes: true)
        _ = try Self.initialized(&writable)
        let all = try Self.reply(&writable, Self.request(2, "tools/list"))["result"]?["tools"]?.arrayValue ?? []
        let writeNames = all.compactMap { $0["name"]?.stringValue }
        #expect(writeNames.contains("delete_record"))
        for tool in all {
            #expect(tool["inputSchema"]?["type"] == "object" && tool["outputSchema"]?["type"] == "object")
            #expect(tool["description"]?.stringValue?.contains("Cost:") == true)
        }
    }

    @Test func describeModelIsTheSchemasOwnDescriptionAndResourcesServeIt() throws {
        var server = try Self.server(models: ["Post"])
        _ = try Self.initialized(&server)
        let described = try Self.call(&server, "describe_model", ["model": "Post"])
        let post = try #require(Self.schema.models["Post"])
        #expect(described["structuredContent"] == Self.schema.description(of: post))
        #expect(described["isError"] == false)
        let text = try Self.reply(&server, Self.request(3, "resources/read", ["uri": "gqlc://models/Post"]))["result"]?["contents"]?[0]?["text"]
        #expect(try JSONValue.parse(text?.stringValue ?? "") == Self.schema.description(of: post))
        let other = try Self.call(&server, "describe_model", ["model": "Blog"])
        #expect(other["content"]?[0]?["text"] == "unknown model 'Blog'; this server serves only Post")
    }

    @Test func argumentsAreCheckedBeforeAnythingIsSent() throws {
        var server = try Self.server()
        _ = try Self.initialized(&server)
        let cases: [(String, JSONValue, String)] = [
            ("list_records", ["model": "Post", "where": ["ratng>3"]], "where 'ratng>3': unknown field 'ratng' on Post; did you mean 'rating'?"),
            ("list_records", ["model": "Post", "limit": 0], "list_records: 'limit' must be an integer from 1 to 1000, not a number"),
            ("list_records", ["model": "Post", "sort": "asc"], "list_records: 'sort' needs 'index': only an index query is ordered"),
            ("get_record", ["model": "Post", "key": "p1"], "get_record: 'key' must be an object, not a string"),
            ("get_record", ["model": "Post"], "get_record needs 'key', an object"),
            ("get_record", ["model": "Post", "key": ["id": "p1"], "includ": ["x"]], "get_record has no argument 'includ'; did you mean 'include'?"),
            ("get_record", ["model": "Post", "key": ["id": "p1"], "include": ["coments"]],
             "include 'coments': unknown field 'coments' on Post; did you mean 'comments'?"),
        ]
        for (tool, arguments, message) in cases {
            let result = try Self.call(&server, tool, arguments)
            #expect(result["isError"] == true)
            #expect(result["content"]?[0]?["text"]?.stringValue == message, "\(tool) \(arguments)")
        }
    }

    @Test func aListIsCutAtARecordBoundaryAndItsTokenResumesAfterTheLastRecordReturned() throws {
        let records = (0..<6).map { index -> String in #"{"id":"c\#(index)","content":"\#(String(repeating: "x", count: 80))"}"# }
        let transport = FakeTransport { _, _ in
            Fixtures.ok(#"{"data":{"listComments":{"items":[\#(records.joined(separator: ","))],"nextToken":null}}}"#)
        }
        var server = try Self.server(maxBytes: 250, transport: transport)
        _ = try Self.initialized(&server)
        var seen: [String] = []
        var token: JSONValue = .null
        var calls = 0
        repeat {
            var arguments: JSONObject = ["model": "Comment"]
            if !token.isNull { arguments["next_token"] = token }
            let result = try Self.call(&server, "list_records", .object(arguments))
            let items = result["structuredContent"]?["items"]?.arrayValue ?? []
            #expect(!items.isEmpty && items.count <= 2)
            seen += items.compactMap { $0["id"]?.stringValue }
            token = result["structuredContent"]?["next_token"] ?? .null
            calls += 1
        } while !token.isNull && calls < 10
        #expect(seen == ["c0", "c1", "c2", "c3", "c4", "c5"])
        #expect(calls == 3)
    }

    @Test func aTokenTheServerRefusesIsNotHandedBackAsAPlaceToResume() throws {
        let transport = FakeTransport { _, _ in
            Fixtures.ok(#"{"data":{"listComments":null},"errors":[{"message":"Invalid nextToken","errorType":"BadRequest"}]}"#)
        }
        var server = try Self.server(transport: transport)
        _ = try Self.initialized(&server)
        let result = try Self.call(&server, "list_records", ["model": "Comment", "next_token": "abc"])
        #expect(result["isError"] == true)
        let text = result["content"]?[0]?["text"]?.stringValue ?? ""
        #expect(text.hasSuffix("; check that next_token comes from a listing of the same model, where, filter and index"), "\(text)")
        #expect(!text.contains("continue with next_token"))
        #expect(transport.sentBodies.first?["variables"]?["nextToken"] == "abc")
    }

    @Test func secretsAreScrubbedFromEveryReply() throws {
        let transport = FakeTransport { _, _ in
            Fixtures.ok(#"{"data":null,"errors":[{"message":"bad key \#(Fixtures.apiKey)","errorType":"UnauthorizedException"}]}"#)
        }
        var server = try Self.server(transport: transport)
        _ = try Self.initialized(&server)
        let reply = server.handle(Self.request(4, "tools/call", ["name": "get_record", "arguments": ["model": "Post", "key": ["id": "p1"]]]))
        let text = try #require(reply)
        #expect(text.contains("UnauthorizedException"))
        #expect(!text.contains(Fixtures.apiKey))
    }

    @Test func theServingNoteCountsTheModelsAndSaysWhetherWritesAreAllowed() throws {
        let one = try MCPConfiguration(schema: Self.schema, models: ["Post"], allowWrites: true, serverVersion: "9.9")
        #expect(one.servingNote == "serving 1 model on stdio, writes allowed")
        let every = try MCPConfiguration(schema: Self.schema, models: nil, allowWrites: false, serverVersion: "9.9")
        #expect(every.servingNote == "serving \(Self.schema.modelNames.count) models on stdio, read-only")
    }
}
