import GQLCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The blog example's posts and comments (schema-examples/blog-seed.json), served in small pages the way AppSync pages
/// them: a listing's `limit` and `nextToken`, and each post's first comment with a token for the rest.
private struct SeededBlogServer: HTTPTransport {
    let posts: [JSONValue]
    let comments: [JSONValue]

    init() throws {
        let seed = try JSONValue.parse(try Self.read(Self.examples + "blog-seed.json"))
        posts = seed["Post"]?.arrayValue ?? []
        comments = seed["Comment"]?.arrayValue ?? []
    }

    static let examples: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/schema-examples/"
    }()

    static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw ReadFailure(path: path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    struct ReadFailure: Error { let path: String }

    func comments(of post: String) -> [JSONValue] {
        comments.filter { $0["postId"]?.stringValue == post }.map { ["id": $0["id"] ?? .null, "content": $0["content"] ?? .null] }
    }

    /// `items[offset..<offset+limit]` and the token of the rest (`"<offset>"`), as a connection.
    func connection(_ items: [JSONValue], limit: Int, token: String?) -> JSONValue {
        let offset = token.flatMap { Int($0) } ?? 0
        let end = min(items.count, offset + limit)
        return ["items": .array(Array(items[offset..<end])), "nextToken": end < items.count ? .string(String(end)) : .null]
    }

    func send(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse {
        guard let body = try? JSONValue.parse(request.body), let query = body["query"]?.stringValue else {
            return HTTPResponse(status: 400, text: "not GraphQL")
        }
        let variables = body["variables"] ?? [:]
        let limit = variables["limit"]?.numberText.flatMap { Int($0) } ?? 100
        let token = variables["nextToken"]?.stringValue
        let data: JSONValue
        if query.contains("listPosts(") {
            let page = posts.map { post -> JSONValue in
                let id = post["id"]?.stringValue ?? ""
                return ["id": .string(id), "title": post["title"] ?? .null, "comments": connection(comments(of: id), limit: 1, token: nil)]
            }
            data = ["listPosts": connection(page, limit: limit, token: token)]
        } else if query.contains("getPost("), let id = variables["id"]?.stringValue {
            data = ["getPost": ["comments": connection(comments(of: id), limit: limit, token: token)]]
        } else {
            return HTTPResponse(status: 400, text: "unexpected query")
        }
        return HTTPResponse(status: 200, text: JSONValue.object(["data": data]).serialized(.compact))
    }
}

/// A Swift program that imports GQLCore lists posts with their comments as `gqlc list Post --include comments
/// --page-size 2` does: the same operation the executable renders, over a fake transport.
@Suite struct ListOperationLibraryTests {
    @Test func aProgramListsWithIncludedListsFollowedToTheirEnd() throws {
        let server = try SeededBlogServer()
        let loaded = try SchemaLoader.load(path: SeededBlogServer.examples + "blog.json")
        let schema = try #require(loaded.schema)
        let endpoint = try Endpoint(url: "https://example.appsync-api.eu-west-1.amazonaws.com/graphql", apiKey: "da2-key", timeout: 30)
        let context = APIContext(schema: schema, client: GraphQLClient(endpoint: endpoint, transport: server))

        var operation = try ListOperation(
            "Post", includes: ["comments"], fields: .paths(["title", "comments.items.content"]), pageSize: 2, builder: context.builder)
        operation.includedPageSize = 2
        var records: [JSONValue] = []
        var others: [String] = []
        let kind = operation.run(in: context) { event in
            switch event {
            case .records(let page): records += page
            case .recordsEnded(complete: true): break
            default: others.append("\(event)")
            }
            return true
        }

        #expect(kind == .success)
        #expect(others.isEmpty)
        // Every post of the seed, in order, each with every one of its comments (the seed's, in order), and no token left.
        #expect(records.compactMap { $0["id"]?.stringValue } == server.posts.compactMap { $0["id"]?.stringValue })
        for record in records {
            let id = record["id"]?.stringValue ?? ""
            #expect(record["comments"]?["items"] == .array(server.comments(of: id)), "comments of \(id)")
            #expect(record["comments"]?["nextToken"] == .null)
        }
        #expect(records.reduce(0) { $0 + ($1["comments"]?["items"]?.arrayValue?.count ?? 0) } == 12)
    }
}

/// A program with nothing to ask the user: no MFA device, secrets given as they are.
private struct Unattended: ContextPrompts {
    func mfaCode(serial: String) -> String? { nil }
    func clientSecret(_ value: String) throws(ContextError) -> String { value }
}

/// A Swift program resolves its context from settings as gqlc does from its flags: the schema file named, the endpoint
/// and API key given, one client for the run.
@Suite struct ContextResolverLibraryTests {
    @Test func aProgramResolvesItsContextFromSettingsAndLists() throws {
        let server = try SeededBlogServer()
        var settings = ContextSettings(schema: Setting(value: SeededBlogServer.examples + "blog.json", origin: .commandLine))
        settings.endpoint = Setting(value: try EndpointURL.setting("https://example.appsync-api.eu-west-1.amazonaws.com/graphql"), origin: .commandLine)
        settings.apiKey = Setting(value: Secret(value: "da2-key"), origin: .environment("APP_API_KEY"))
        let resolver = ContextResolver(settings: settings, prompts: Unattended(), transport: server)

        let file = try resolver.schemaFile(required: true)
        let schema = try resolver.modelSchema(in: file)
        let client = try resolver.client(file: file, model: schema.models["Post"])
        #expect(client.endpoint.headers.contains { $0.name == "x-api-key" && $0.value == "da2-key" })
        let context = APIContext(schema: schema, client: client)
        let operation = try ListOperation("Post", includes: [], fields: .paths(["title"]), pageSize: 2, builder: context.builder)
        var ids: [String] = []
        let kind = operation.run(in: context) { event in
            if case .records(let page) = event { ids += page.compactMap { $0["id"]?.stringValue } }
            return true
        }
        #expect(kind == .success)
        #expect(ids == server.posts.compactMap { $0["id"]?.stringValue })
    }
}
