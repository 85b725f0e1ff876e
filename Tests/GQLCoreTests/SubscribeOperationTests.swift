import Foundation
import Testing
@testable import GQLCore

/// A scripted AppSync real-time server: every socket it hands out acknowledges `connection_init`, each `start`
/// (`start_ack`) and each `stop` (`complete`), then delivers what the test queued for that connection, and drops the
/// connection when it has nothing more to say if told to.
final class FakeRealtimeServer: @unchecked Sendable {
    /// What the server does on one connection.
    struct Script {
        /// Data payloads sent, in order, once every subscription is acknowledged: (subscription index, payload).
        var events: [(Int, String)] = []
        /// Drop the connection once everything was delivered.
        var dropWhenDone = false
        /// Answer the first start of the subscription at this index with an unauthorized error instead of an ack.
        var refuseFirstStart: Int?
        /// Acknowledge each start twice (a server that repeats itself).
        var repeatAcks = false
        /// Complete every subscription on its own once the events were delivered.
        var completeWhenDone = false
    }

    private let lock = NSLock()
    private let scripts: [Script]
    private var opened: [FakeRealtimeSocket] = []

    init(_ scripts: [Script]) { self.scripts = scripts }

    var sockets: [FakeRealtimeSocket] {
        lock.lock()
        defer { lock.unlock() }
        return opened
    }

    var connector: RealtimeConnector {
        { request in
            self.lock.lock()
            defer { self.lock.unlock() }
            let script = self.opened.count < self.scripts.count ? self.scripts[self.opened.count] : Script()
            let socket = FakeRealtimeSocket(request: request, script: script)
            self.opened.append(socket)
            return socket
        }
    }
}

final class FakeRealtimeSocket: RealtimeSocket, @unchecked Sendable {
    let request: RealtimeSocketRequest
    private let script: FakeRealtimeServer.Script
    private(set) var sent: [JSONValue] = []
    private var inbox: [String] = []
    private var startIDs: [String] = []
    private var acknowledged = 0
    private var refused = false
    private var delivered = false

    init(request: RealtimeSocketRequest, script: FakeRealtimeServer.Script) {
        self.request = request
        self.script = script
    }

    /// The auth header object the connection was opened with (the `header-…` subprotocol, decoded).
    var connectHeader: JSONValue? {
        guard let encoded = request.subprotocols.first(where: { $0.hasPrefix("header-") })?.dropFirst(7) else { return nil }
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONValue.parse(String(decoding: data, as: UTF8.self))
    }

    /// The `start` messages sent on this connection.
    var starts: [JSONValue] { sent.filter { $0["type"]?.stringValue == "start" } }

    func send(text: String, interruptible: Bool) throws(WebSocketError) {
        guard let message = try? JSONValue.parse(text), let type = message["type"]?.stringValue else { return }
        sent.append(message)
        let id = message["id"]?.stringValue ?? ""
        switch type {
        case "connection_init":
            inbox.append(#"{"type":"connection_ack","payload":{"connectionTimeoutMs":300000}}"#)
        case "start":
            startIDs.append(id)
            if let index = script.refuseFirstStart, startIDs.count == index + 1, !refused {
                refused = true
                inbox.append(
                    #"{"type":"error","id":"\#(id)","payload":{"errors":[{"errorType":"UnauthorizedException","message":"Token has expired."}]}}"#)
                return
            }
            inbox.append(#"{"type":"start_ack","id":"\#(id)"}"#)
            if script.repeatAcks { inbox.append(#"{"type":"start_ack","id":"\#(id)"}"#) }
            acknowledged += 1
        case "stop":
            inbox.append(#"{"type":"complete","id":"\#(id)"}"#)
        default:
            break
        }
    }

    func receive(timeout: Double?, interruptible: Bool) throws(WebSocketError) -> WebSocketMessage? {
        if inbox.isEmpty, !delivered, acknowledged > 0, acknowledged >= startIDs.count - (refused ? 1 : 0) {
            delivered = true
            // Each event goes to the latest start of its subscription (a refused start was made again).
            let liveIDs = Array(startIDs.suffix(acknowledged))
            for (index, payload) in script.events where index < liveIDs.count {
                inbox.append(#"{"type":"data","id":"\#(liveIDs[index])","payload":\#(payload)}"#)
            }
            if script.completeWhenDone { inbox += liveIDs.map { #"{"type":"complete","id":"\#($0)"}"# } }
        }
        if !inbox.isEmpty { return .text(inbox.removeFirst()) }
        if script.dropWhenDone && delivered { throw .connectionLost }
        // Nothing more to say: wait out the timeout as a real socket would, unless the connection's flag is set.
        guard interruptible else { return nil }
        if (request.cancellation ?? idle).wait(seconds: timeout ?? 60) { throw .cancelled }
        return nil
    }

    /// Waited on when the connection has no flag of its own.
    private let idle = CancellationFlag()

    func close(code: UInt16, reason: String, wait: Double?) throws(WebSocketError) {}
    func abandon() {}
}

@Suite struct SubscribeOperationTests {
    static let schema = try! TestSchemas.load(TestPaths.example("blog.json"))

    static func post(_ id: String, errors: Bool = false) -> String {
        let data = #"{"data":{"onCreatePost":{"id":"\#(id)","title":"T\#(id)"}}"#
        return errors ? data + #","errors":[{"message":"field denied","path":["onCreatePost","title"]}]}"# : data + "}"
    }

    static func context(
        _ server: FakeRealtimeServer, token: String? = nil, renewal: TokenRenewal? = nil, clock: RecordingClock = RecordingClock()
    ) throws -> RealtimeContext {
        let endpoint = try Endpoint(
            url: "https://example.appsync-api.eu-west-1.amazonaws.com/graphql", apiKey: token == nil ? Fixtures.apiKey : nil,
            authorization: token, timeout: 5)
        return RealtimeContext(
            endpoint: endpoint, url: try RealtimeEndpoint.url(forAPI: endpoint.url.absoluteString), renewal: renewal,
            duration: 10, clock: clock.clock, connector: server.connector)
    }

    static func onCreatePost(limit: Int?) throws -> SubscribeOperation {
        var operation = try SubscribeOperation(
            model: "Post", events: [.onCreate], conditions: [], includes: [], builder: RequestBuilder(schema: schema))
        operation.limit = limit
        // A test that goes wrong ends here rather than hanging.
        operation.duration = 10
        return operation
    }

    /// The events as short strings, for comparing whole runs.
    static func run(_ operation: SubscribeOperation, in context: RealtimeContext) -> (ResultKind, [String]) {
        var seen: [String] = []
        let kind = operation.run(in: context) { event in
            switch event {
            case .subscribed(let name): seen.append("subscribed \(name)")
            case .graphQLErrors(let errors): seen.append("errors \(errors.map(\.message))")
            case .result(let name, let value, _): seen.append("\(name) \(value["id"]?.stringValue ?? "null")")
            case .connectionLost(_, let attempt, let delay): seen.append("lost \(attempt) retry in \(delay)")
            case .resubscribed: seen.append("resubscribed")
            case .completedByServer: seen.append("completed")
            case .failed(let failure): seen.append("failed \(failure.error.kind)")
            }
            return true
        }
        return (kind, seen)
    }

    @Test func aDroppedConnectionIsMadeAgainAndTheSubscriptionsStartedAgain() throws {
        let server = FakeRealtimeServer([
            .init(events: [(0, Self.post("p1"))], dropWhenDone: true),
            .init(events: [(0, Self.post("p2"))]),
        ])
        let clock = RecordingClock(random: 0.5)
        let (kind, events) = Self.run(try Self.onCreatePost(limit: 2), in: try Self.context(server, clock: clock))
        #expect(kind == .success)
        #expect(events == [
            "subscribed onCreatePost", "onCreatePost p1", "lost 1 retry in 0.375", "subscribed onCreatePost", "resubscribed",
            "onCreatePost p2",
        ])
        #expect(server.sockets.count == 2)
        #expect(server.sockets.map { $0.starts.count } == [1, 1])
        // The backoff before the second connection was waited on the injected clock.
        #expect(clock.sleeps == [0.375])
    }

    @Test func aReconnectionRenewsTheTokenThroughTheContextsRenewalOnly() throws {
        let asked = EventRecorder<Bool>()
        let renewal = TokenRenewal { force in
            asked.sink(force)
            return "token-2"
        }
        let server = FakeRealtimeServer([.init(events: [(0, Self.post("p1"))], dropWhenDone: true), .init(events: [(0, Self.post("p2"))])])
        let (kind, _) = Self.run(try Self.onCreatePost(limit: 2), in: try Self.context(server, token: "token-1", renewal: renewal))
        #expect(kind == .success)
        // The first connection uses the token resolved once; the second asks the renewal (not forced), nothing else.
        #expect(asked.events == [false])
        #expect(server.sockets.map { $0.connectHeader?["Authorization"]?.stringValue } == ["token-1", "token-2"])
        #expect(server.sockets[1].starts.first?["payload"]?["extensions"]?["authorization"]?["Authorization"]?.stringValue == "token-2")
    }

    @Test func aStartRefusedAsUnauthorizedIsStartedAgainOnceWithARenewedToken() throws {
        let asked = EventRecorder<Bool>()
        let renewal = TokenRenewal { force in
            asked.sink(force)
            return "token-2"
        }
        let server = FakeRealtimeServer([.init(events: [(0, Self.post("p1"))], refuseFirstStart: 0, repeatAcks: true)])
        let (kind, events) = Self.run(try Self.onCreatePost(limit: 1), in: try Self.context(server, token: "token-1", renewal: renewal))
        #expect(kind == .success)
        // The repeated start_ack is reported once; the refusal is not reported at all.
        #expect(events == ["subscribed onCreatePost", "onCreatePost p1"])
        #expect(asked.events == [true])
        let starts = try #require(server.sockets.first).starts
        #expect(starts.count == 2)
        #expect(starts.map { $0["payload"]?["extensions"]?["authorization"]?["Authorization"]?.stringValue } == ["token-1", "token-2"])
        #expect(starts[0]["id"] != starts[1]["id"])
    }

    @Test func aStartRefusedAgainAfterTheRenewalFailsNamingTheRenewal() throws {
        let renewal = TokenRenewal { _ throws(ContextError) in throw .tokenMissing }
        let server = FakeRealtimeServer([.init(refuseFirstStart: 0)])
        var failure: SubscriptionFailure?
        let kind = try Self.onCreatePost(limit: 1).run(in: try Self.context(server, token: "token-1", renewal: renewal)) { event in
            if case .failed(let reason) = event { failure = reason }
            return true
        }
        #expect(kind == .httpError)
        #expect(failure?.error.isUnauthorized == true)
        #expect({ if case .tokenMissing? = failure?.renewalFailure { true } else { false } }())
    }

    @Test func anEventWithErrorsReportsThemBeforeItsResultAndTheRunIsPartial() throws {
        let server = FakeRealtimeServer([.init(events: [(0, Self.post("p1", errors: true)), (0, Self.post("p2"))], completeWhenDone: true)])
        let (kind, events) = Self.run(try Self.onCreatePost(limit: nil), in: try Self.context(server))
        #expect(kind == .partial)
        #expect(events == [
            "subscribed onCreatePost", #"errors ["field denied"]"#, "onCreatePost p1", "onCreatePost p2", "completed",
        ])
    }

    /// What a Swift program that imports GQLCore does: build a model's subscriptions, run them over a context and
    /// collect the records with the change each one is.
    @Test func aProgramGetsTheRecordsOfItsSubscriptionWithTheirChange() throws {
        let server = FakeRealtimeServer([.init(events: [(0, Self.post("p1")), (1, #"{"data":{"onDeletePost":{"id":"p0"}}}"#)])])
        var operation = try SubscribeOperation(
            model: "Post", events: [.onCreate, .onDelete], conditions: ["rating>=4"], includes: [],
            builder: RequestBuilder(schema: Self.schema))
        operation.limit = 2
        var changes: [WatchEvent] = []
        let kind = operation.run(in: try Self.context(server)) { event in
            if case .result(let name, let value, _) = event, let change = operation.changes[name] { changes.append(.change(change, value)) }
            return true
        }
        #expect(kind == .success)
        #expect(changes == [.change(.create, ["id": "p1", "title": "Tp1"]), .change(.delete, ["id": "p0"])])
        // The filter went to the server as the subscription's variable.
        #expect(server.sockets.first?.starts.count == 2)
        let data = try #require(server.sockets.first?.starts.first?["payload"]?["data"]?.stringValue)
        #expect(try JSONValue.parse(data)["variables"]?["filter"] == ["rating": ["ge": 4]])
    }

    @Test func aWatchOfAListingWithAFilterObjectIsRefusedBeforeItsSubscriptionsAreBuilt() throws {
        let builder = RequestBuilder(schema: Self.schema)
        let refusal = thrownError { () throws(SubscribeBuildError) in
            try SubscribeOperation.watching("Post", conditions: [], includes: [], builder: builder, withFilterObject: true)
        }
        guard case .filterObjectCannotWatch(let model)? = refusal else {
            Issue.record("expected filterObjectCannotWatch, got \(String(describing: refusal))")
            return
        }
        #expect(model == "Post")
        let watch = try SubscribeOperation.watching("Post", conditions: ["rating>=4"], includes: [], builder: builder)
        #expect(watch.changes.values.sorted { $0.rawValue < $1.rawValue } == [.create, .delete, .update])
    }
}
