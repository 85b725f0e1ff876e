import Foundation
import Synchronization
import Testing
@testable import GQLCore

/// A temporary directory; the test that asks for one removes it (`defer`).
private func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-jobs-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A snapshot directory holding `records` (model → NDJSON lines), every model complete unless named in `incomplete`.
private func snapshot(_ records: [String: [String]], incomplete: Set<String> = []) throws -> String {
    let directory = try temporaryDirectory()
    var manifest = SnapshotManifest(models: [], schemaSHA256: nil, endpoint: nil, takenAt: "2026-11-27T00:00:00Z")
    for (model, lines) in records.sorted(by: { $0.key < $1.key }) {
        try (lines.map { $0 + "\n" }.joined()).write(toFile: directory + "/" + model + ".ndjson", atomically: true, encoding: .utf8)
        var entry = SnapshotManifest.Entry(name: model, complete: !incomplete.contains(model))
        entry.count = lines.count
        manifest.models.append(entry)
    }
    try manifest.write(directory: directory)
    return directory
}

/// The request's GraphQL root field (`createBlog`, `listPosts`) and its variables.
private func rootField(_ request: HTTPRequest) -> (String, JSONValue?) {
    let body = try? JSONValue.parse(request.body)
    let query = body?["query"]?.stringValue ?? ""
    let match = query.firstMatch(of: /\b((create|update|list)[A-Z]\w*)/)
    return (match.map { String($0.1) } ?? "", body?["variables"])
}

/// A server that echoes each create's or update's input as the record, and lists `listed` (root field → records) on
/// one page each.
private func server(listing listed: [String: String] = [:]) -> FakeTransport {
    FakeTransport { request, _ in
        let (root, variables) = rootField(request)
        if root.hasPrefix("list") {
            return Fixtures.ok(#"{"data":{"\#(root)":{"items":[\#(listed[root] ?? "")],"nextToken":null}}}"#)
        }
        let input = variables?["input"].map { $0.serialized(.compact) } ?? "null"
        return Fixtures.ok(#"{"data":{"\#(root)":\#(input)}}"#)
    }
}

/// The root fields of the mutations `transport` was sent, in order, with their inputs.
private func writes(_ transport: FakeTransport) -> [(String, JSONObject)] {
    transport.requests.compactMap { request in
        let (root, variables) = rootField(request)
        guard !root.hasPrefix("list"), let input = variables?["input"]?.objectValue else { return nil }
        return (root, input)
    }
}

private func context(_ transport: FakeTransport, schema: ModelSchema) throws -> JobContext {
    let client = try Fixtures.client(transport, retries: 0)
    return JobContext(schema: schema, client: { _ throws(ContextError) in client })
}

/// The whole-app data jobs as a Swift program runs them: over a fake transport, without the executable.
@Suite struct DataJobTests {
    @Test func aRestoreCreatesParentsFirstWithTheirKeysAndWithoutReadOnlyValues() throws {
        let schema = try TestSchemas.blog()
        let directory = try snapshot([
            "Blog": [#"{"id":"b1","name":"Tech","createdAt":"2020-01-01T00:00:00.000Z","__typename":"Blog"}"#],
            "Comment": [#"{"id":"c1","content":"hi","postId":"p1","__typename":"Comment"}"#],
            "Post": [#"{"id":"p1","title":"T","blogId":"b1","blog":{"id":"b1","__typename":"Blog"},"__typename":"Post"}"#],
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var operation = try RestoreOperation(directory: directory, models: [], schema: schema)
        var notes: [RestoreNote] = []
        try operation.check { notes.append($0) }
        #expect(notes == [.readOnlyLeftOut(fields: ["createdAt"], models: ["Blog"])])
        #expect(operation.planLines == ["Blog 1", "Post 1", "Comment 1"])
        let transport = server()
        let events = EventRecorder<RestoreEvent>()
        let outcome = operation.run(in: try context(transport, schema: schema), retry: RetryPolicy(maxRetries: 0), cancellation: nil, events: events.sink)
        #expect(outcome.kind == .success)
        let sent = writes(transport)
        // Belongs-to targets first: by name, Comment would come before Post and Post before its Blog's creation check.
        #expect(sent.map(\.0) == ["createBlog", "createPost", "createComment"])
        #expect(sent.map { $0.1["id"]?.stringValue } == ["b1", "p1", "c1"])
        #expect(sent[0].1["createdAt"] == nil)
        #expect(outcome.counts.map(\.counts.restored) == [1, 1, 1])
    }

    @Test func aRestoreCreatesWithoutASelfLinkAndItsBelongsToThenSetsTheLinkByUpdate() throws {
        let file = try SchemaLoader.load(bytes: Array("""
            type Employee @model { id: ID! name: String managerId: ID manager: Employee @belongsTo(references: ["managerId"]) reports: [Employee] @hasMany(references: ["managerId"]) }
            """.utf8), path: "schema.graphql")
        let schema = try #require(file.schema)
        let directory = try snapshot(["Employee": [
            #"{"id":"e1","name":"Boss","managerId":null}"#,
            #"{"id":"e2","name":"Ann","managerId":"e1","manager":{"id":"e1","__typename":"Employee"}}"#,
        ]])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var operation = try RestoreOperation(directory: directory, models: [], schema: schema)
        operation.options.concurrency = 1
        try operation.check { _ in }
        #expect(operation.planLines == ["Employee 2 (then managerId by update)"])
        let transport = server()
        let outcome = operation.run(in: try context(transport, schema: schema), retry: RetryPolicy(maxRetries: 0), cancellation: nil, events: { _ in })
        #expect(outcome.kind == .success)
        let sent = writes(transport)
        #expect(sent.map(\.0) == ["createEmployee", "createEmployee", "updateEmployee"])
        // The creates carry neither the deferred key nor the belongs-to object that would set it again.
        #expect(sent.prefix(2).allSatisfy { $0.1["managerId"] == nil && $0.1["manager"] == nil })
        #expect(sent[2].1 == ["id": "e2", "managerId": "e1"])
        #expect(outcome.counts.first?.counts.linked == 1)
    }

    @Test func aRestoreLeavesOutIncompleteModelsAndSaysSoAndStopsWhenTheSnapshotDoesNotFit() throws {
        let schema = try TestSchemas.blog()
        let directory = try snapshot(["Blog": [#"{"id":"b1","name":"Tech"}"#], "Post": [#"{"id":"p1"}"#]], incomplete: ["Post"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var operation = try RestoreOperation(directory: directory, models: [], schema: schema)
        var notes: [RestoreNote] = []
        try operation.check { notes.append($0) }
        #expect(notes == [.incomplete(model: "Post")])
        #expect(operation.models == ["Blog"])
        let outcome = operation.run(
            in: try context(server(), schema: schema), retry: RetryPolicy(maxRetries: 0), cancellation: nil, events: { _ in })
        #expect(outcome.kind == .partial)

        let unfit = try snapshot(["Blog": [#"{"id":"b1","name":"Tech","colour":"red"}"#]])
        defer { try? FileManager.default.removeItem(atPath: unfit) }
        var refused = try RestoreOperation(directory: unfit, models: [], schema: schema)
        #expect(throws: SnapshotError.doesNotFit) { try refused.check { _ in } }
        #expect(throws: SnapshotError.notInSnapshot("Tag", directory: unfit, known: ["Blog"])) {
            try RestoreOperation(directory: unfit, models: ["Tag"], schema: schema)
        }
    }

    @Test func aSnapshotListsEachModelIntoItsFileAndSkipsAModelWithoutAClient() throws {
        let schema = try TestSchemas.blog()
        let base = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let directory = base + "/new/snap"
        let transport = server(listing: ["listBlogs": #"{"id":"b1","name":"Tech"},{"id":"b2","name":"Food"}"#])
        let client = try Fixtures.client(transport, retries: 0)
        let jobs = JobContext(schema: schema) { model throws(ContextError) in
            if model?.name == "Comment" { throw .apiKeyMissing }
            return client
        }
        let operation = try SnapshotOperation(
            directory: directory, models: [], resume: false, schema: schema, schemaSHA256: nil, endpoint: "https://u:p@h/graphql",
            now: Timestamp(secondsSince1970: 0))
        #expect(operation.models == ["Blog", "Comment", "Post"])
        let outcome = operation.run(in: jobs, reason: { "no key: \($0)" }, events: { _ in })
        #expect(outcome.kind == .partial)
        let blogs = try String(contentsOfFile: directory + "/Blog.ndjson", encoding: .utf8)
        #expect(blogs == #"{"id":"b1","name":"Tech"}"# + "\n" + #"{"id":"b2","name":"Food"}"# + "\n")
        let manifest = try #require(try SnapshotManifest.read(directory: directory))
        #expect(manifest.takenAt == "1970-01-01T00:00:00Z")
        #expect(manifest.endpoint?.contains("u:p") == false)
        #expect(manifest.entry("Blog")?.count == 2 && manifest.entry("Blog")?.complete == true)
        #expect(manifest.entry("Comment")?.skipped?.hasPrefix("no key: ") == true)
        #expect(manifest.entry("Post")?.complete == true)
        // A second snapshot into the same directory is refused unless it resumes, and resumes only what is not done.
        #expect(throws: SnapshotError.notEmpty(directory)) {
            try SnapshotOperation(directory: directory, models: [], resume: false, schema: schema, schemaSHA256: nil, endpoint: nil, now: .now())
        }
        let resumed = try SnapshotOperation(directory: directory, models: [], resume: true, schema: schema, schemaSHA256: nil, endpoint: nil, now: .now())
        var started: [String] = []
        _ = resumed.run(in: jobs, reason: { "\($0)" }) { event in if case .modelStarted(let name) = event { started.append(name) } }
        #expect(started.isEmpty)  // Comment still has no client; Blog and Post are complete
    }

    @Test func aJobWhoseAPICannotBeResolvedStopsBeforeItsFirstStepAndAResolvedOneRegistersItsSecrets() throws {
        let schema = try TestSchemas.blog()
        let resolved = Mutex<[String?]>([])
        let unresolved = JobContext(schema: schema) { model throws(ContextError) in
            resolved.withLock { $0.append(model?.name) }
            throw .apiKeyMissing
        }
        let base = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let snapshotting = try SnapshotOperation(
            directory: base + "/snap", models: ["Blog"], resume: false, schema: schema, schemaSHA256: nil, endpoint: nil, now: .now())
        var events = 0
        let outcome = snapshotting.run(in: unresolved, reason: { "\($0)" }) { _ in events += 1 }
        guard case .unavailable(.apiKeyMissing)? = outcome.stop else {
            Issue.record("\(String(describing: outcome.stop))")
            return
        }
        // The API itself (a request on no model) is resolved first; nothing is listed, no manifest written.
        #expect(outcome.kind == .invalidInput && events == 0 && resolved.withLock { $0 } == [nil])
        #expect(try SnapshotManifest.read(directory: base + "/snap") == nil)
        let directory = try snapshot(["Blog": [#"{"id":"b1","name":"Tech"}"#]])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var restoring = try RestoreOperation(directory: directory, models: [], schema: schema)
        try restoring.check { _ in }
        let restoreEvents = EventRecorder<RestoreEvent>()
        let restored = restoring.run(in: unresolved, retry: RetryPolicy(maxRetries: 0), cancellation: nil, events: restoreEvents.sink)
        guard case .apiKeyMissing? = restored.unavailable else {
            Issue.record("\(String(describing: restored.unavailable))")
            return
        }
        #expect(restoreEvents.events.isEmpty && resolved.withLock { $0 } == [nil, nil])

        let key = "da2-job-\(UUID().uuidString)"
        let client = GraphQLClient(
            endpoint: try Endpoint(url: "https://example.appsync-api.eu-west-1.amazonaws.com/graphql", apiKey: key, headerLines: [], timeout: 30),
            transport: server(), retry: RetryPolicy(maxRetries: 0), cancellation: nil, clock: RecordingClock().clock, trace: nil)
        let jobs = JobContext(schema: schema) { _ throws(ContextError) in client }
        #expect(!ProcessSecrets.all.contains(key))
        _ = try jobs.client(for: schema.models["Blog"])
        // Any redactor now scrubs the job's API key, whatever it was made with.
        #expect(ProcessSecrets.all.contains(key) && !Redactor.none.scrub("bad key \(key)").contains(key))
    }

    @Test func aCopyCreatesTheSourcesRecordsInTheTargetInPlanOrder() throws {
        let schema = try TestSchemas.blog()
        let source = server(listing: [
            "listPosts": #"{"id":"p1","title":"T","blogId":"b1","__typename":"Post"}"#,
            "listBlogs": #"{"id":"b1","name":"Tech","__typename":"Blog"}"#,
        ])
        let target = server()
        var operation = try CopyOperation(models: ["Post", "Blog"], source: schema, target: schema) { _ in }
        let sourceContext = try context(source, schema: schema)
        try operation.resolveSource(sourceContext)
        let counted = operation.countSource(sourceContext)
        #expect(counted.lines == ["Blog 1", "Post 1"] && counted.failed == nil)
        let outcome = operation.run(
            from: sourceContext, into: try context(target, schema: schema), retry: RetryPolicy(maxRetries: 0), cancellation: nil,
            events: { _ in })
        #expect(outcome.kind == .success)
        #expect(writes(target).map(\.0) == ["createBlog", "createPost"])
        #expect(writes(target).last?.1["title"] == "T")
    }

    @Test func aCopysDryRunWritesEachModelsCountAndSaysWhichCountingFailed() throws {
        final class Written: OutputSink, @unchecked Sendable {
            let text = Mutex("")
            func write(_ written: String) { text.withLock { $0 += written } }
        }
        let schema = try TestSchemas.blog()
        let source = FakeTransport { request, _ in
            let (root, _) = rootField(request)
            if root == "listPosts" { return Fixtures.status(500, "down") }
            return Fixtures.ok(#"{"data":{"\#(root)":{"items":[{"id":"b1"},{"id":"b2"}],"nextToken":null}}}"#)
        }
        var operation = try CopyOperation(models: ["Post", "Blog"], source: schema, target: schema) { _ in }
        let sourceContext = try context(source, schema: schema)
        try operation.resolveSource(sourceContext)
        let output = Written()
        var said: [String] = []
        #expect(operation.reportCount(sourceContext, output: output, say: { said.append($0) }) == .httpError)
        #expect(output.text.withLock { $0 } == "Blog 2\n" && said == ["counting Post in the source failed"])
    }

    @Test func aDiffComparesParsedRecordsByKeyAcrossASnapshotAndAnAPI() throws {
        let schema = try TestSchemas.blog()
        let from = try snapshot(
            ["Blog": [#"{"id":"b1","name":"Tech"}"#, #"{"id":"b2","name":"Food"}"#, #"{"id":"b4","name":"Same"}"#], "Post": []],
            incomplete: ["Post"])
        defer { try? FileManager.default.removeItem(atPath: from) }
        // The API's b4 lists its members in another order and with an ignored field: the same record.
        let api = server(listing: [
            "listBlogs": #"{"id":"b1","name":"Science"},{"id":"b3","name":"New"},{"updatedAt":"x","name":"Same","id":"b4"}"#
        ])
        var incomplete: [String] = []
        let operation = try DiffOperation(
            models: [], schema: schema, from: .snapshot(directory: from, try #require(try SnapshotManifest.read(directory: from))),
            to: .api(try context(api, schema: schema))
        ) { name, reason, toSide in
            #expect(reason == .incompleteInSnapshot(directory: from, skipped: nil) && !toSide)
            incomplete.append(name)
        }
        #expect(operation.models == ["Blog"] && incomplete == ["Post"])
        var found: [String] = []
        let outcome = operation.run(reason: { "\($0)" }) { difference in
            found.append("\(difference.operation.rawValue) \(difference.key["id"]?.stringValue ?? "") \(difference.fields)")
        } finished: { _, _ in }
        #expect(outcome.differ && outcome.failure == nil)
        #expect(found.sorted() == ["added b3 []", "changed b1 [\"name\"]", "removed b2 []"])
        #expect(throws: DiffCheckError.unavailable(model: "Comment", .notInSnapshot(directory: from), toSide: false)) {
            try DiffOperation(models: ["Comment"], schema: schema, from: operation.from, to: operation.to) { _, _, _ in }
        }
    }
}

/// The account operations over an injected clock and token file.
@Suite struct AccountOperationTests {
    /// A JWT (unsigned) with `claims`.
    func token(_ claims: String) -> String {
        let payload = Data(claims.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return "eyJhbGciOiJub25lIn0." + payload + ".sig"
    }

    func resolver(now: Timestamp, tokens: String) -> ContextResolver {
        var settings = ContextSettings(schema: Setting(value: TestPaths.example("blog.json"), origin: .commandLine))
        settings.tokenStoreEnvironment = ["XDG_CONFIG_HOME": tokens]
        settings.userPool = UserPoolOverrides(poolId: "eu-west-1_pool", clientId: "client1")
        return ContextResolver(settings: settings, prompts: NoAccountPrompts(), transport: FakeTransport([]), clock: RecordingClock(now: now).clock)
    }

    @Test func whoamiReportsTheExpiryAndWhetherItHasPassedByTheInjectedClock() throws {
        let tokens = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tokens) }
        let signIn = StoredSignIn(
            username: "ann", accessToken: token(#"{"username":"ann-sub","exp":1000000000}"#),
            idToken: token(#"{"sub":"s-1","email":"ann@example.com","cognito:groups":["admins"],"exp":1000000000}"#), refreshToken: "r")
        try TokenStore(directory: tokens + "/gqlc").store(signIn, for: "eu-west-1_pool/client1")
        let before = try WhoamiOperation().run(resolver: resolver(now: Timestamp(secondsSince1970: 999_999_999), tokens: tokens))
        #expect(before["expiresAt"] == "2001-09-09T01:46:40Z")
        #expect(before["expired"] == false)
        #expect(before["username"] == "ann-sub" && before["email"] == "ann@example.com" && before["groups"] == ["admins"])
        let after = try WhoamiOperation().run(resolver: resolver(now: Timestamp(secondsSince1970: 1_000_000_001), tokens: tokens))
        #expect(after["expired"] == true)
    }

    @Test func nobodySignedInIsATypedErrorAndLogoutHasNothingToForget() throws {
        let tokens = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tokens) }
        let resolver = resolver(now: .now(), tokens: tokens)
        #expect(throws: AccountError.cognito(.notSignedIn)) { try WhoamiOperation().run(resolver: resolver) }
        let (poolId, signedOut) = try LogoutOperation().run(resolver: resolver) { _ in Issue.record("nothing to revoke") }
        #expect(poolId == "eu-west-1_pool" && !signedOut)
    }
}

private struct NoAccountPrompts: ContextPrompts {
    func mfaCode(serial: String) -> String? { nil }
    func clientSecret(_ value: String) throws(ContextError) -> String { value }
}
