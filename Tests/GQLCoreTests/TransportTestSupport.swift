import Foundation
import Testing
@testable import GQLCore

/// An in-memory transport that answers from a script and records what it was sent.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    typealias Reply = Result<HTTPResponse, TransportError>
    // Guarded by `lock`.
    private let lock = NSLock()
    private var replies: [Reply]
    private var handler: (@Sendable (HTTPRequest, Int) -> Reply)?
    private var recorded: [HTTPRequest] = []

    /// Answers with `replies` in order; the last one repeats.
    init(_ replies: [Reply]) {
        self.replies = replies
    }

    /// Answers each request (with its 0-based index) through `handler`.
    init(handler: @escaping @Sendable (HTTPRequest, Int) -> Reply) {
        self.replies = []
        self.handler = handler
    }

    var requests: [HTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// The JSON bodies sent, parsed.
    var sentBodies: [JSONValue] { requests.compactMap { try? JSONValue.parse($0.body) } }

    func send(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse {
        lock.lock()
        let index = recorded.count
        recorded.append(request)
        let reply: Reply
        if let handler {
            lock.unlock()
            reply = handler(request, index)
        } else {
            reply = replies.isEmpty ? .failure(.network("no scripted reply")) : replies[min(index, replies.count - 1)]
            lock.unlock()
        }
        return try reply.get()
    }
}

/// A retry clock that records sleeps instead of sleeping, with scripted randomness and a fixed "now".
final class RecordingClock: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var recordedSleeps: [Double] = []
    private let randomValue: Double
    let now: Timestamp
    private let onSleep: (@Sendable () -> Void)?

    init(random: Double = 0.5, now: Timestamp = Timestamp(secondsSince1970: 1_445_412_450), onSleep: (@Sendable () -> Void)? = nil) {
        randomValue = random
        self.now = now
        self.onSleep = onSleep
    }

    var sleeps: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return recordedSleeps
    }

    var clock: RetryClock {
        RetryClock(
            sleep: { seconds in
                self.lock.lock()
                self.recordedSleeps.append(seconds)
                self.lock.unlock()
                self.onSleep?()
            },
            random: { self.randomValue },
            now: { self.now })
    }
}

/// Collects the events a sink receives (trace, progress, a fake's calls), from any thread.
final class EventRecorder<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Event] = []

    var events: [Event] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    var sink: @Sendable (Event) -> Void {
        { event in
            self.lock.lock()
            self.recorded.append(event)
            self.lock.unlock()
        }
    }
}

/// Collects trace events.
typealias TraceRecorder = EventRecorder<TraceEvent>

enum Fixtures {
    static let apiKey = "da2-abcdefghijklmnopqrstuvwxyz"

    /// A client made by a real ContextResolver that signs with IAM keys from the environment, over `transport`.
    static func signingClient(_ transport: FakeTransport) throws -> GraphQLClient {
        var settings = ContextSettings(schema: Setting(value: "/nonexistent/amplify_outputs.json", origin: .commandLine))
        settings.endpoint = Setting(value: try EndpointURL.setting("https://example.appsync-api.eu-west-1.amazonaws.com/graphql"), origin: .commandLine)
        settings.iam = Setting(value: true, origin: .commandLine)
        settings.awsEnvironment = [
            "AWS_CONFIG_FILE": "/nonexistent/config", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials",
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        ]
        let resolver = ContextResolver(settings: settings, prompts: NoPrompts(), transport: transport, clock: RecordingClock().clock)
        return try resolver.client(file: nil, model: nil)
    }

    /// Whether `request` is signed with the access key of ``signingClient(_:)``.
    static func isSigned(_ request: HTTPRequest) -> Bool {
        request.headers.contains { $0.name.lowercased() == "authorization" && $0.value.contains("Credential=AKIDEXAMPLE/") }
    }

    static func endpoint(headerLines: [String] = []) throws -> Endpoint {
        try Endpoint(
            url: "https://example.appsync-api.eu-west-1.amazonaws.com/graphql", apiKey: apiKey, headerLines: headerLines,
            timeout: 30)
    }

    static func client(
        _ transport: FakeTransport, retries: Int = 3, clock: RecordingClock = RecordingClock(), cancellation: CancellationFlag? = nil,
        trace: TraceRecorder? = nil
    ) throws -> GraphQLClient {
        GraphQLClient(
            endpoint: try endpoint(), transport: transport, retry: RetryPolicy(maxRetries: retries), cancellation: cancellation, clock: clock.clock, trace: trace?.sink)
    }

    static let query = GraphQLRequest(query: "query GetPost($id: ID!) {\n  getPost(id: $id) {\n    id\n  }\n}",
                                      variables: ["id": "p1"], operationType: .query, decodePath: ["getPost"])
    static let mutation = GraphQLRequest(query: "mutation DeletePost($input: DeletePostInput!) {\n  deletePost(input: $input) {\n    id\n  }\n}",
                                         variables: ["input": ["id": "p1"]], operationType: .mutation, decodePath: ["deletePost"])

    static func ok(_ text: String = #"{"data":{"getPost":{"id":"p1"}}}"#) -> FakeTransport.Reply {
        .success(HTTPResponse(status: 200, text: text))
    }

    static func status(_ status: Int, _ text: String = "", headers: [HTTPHeader] = []) -> FakeTransport.Reply {
        .success(HTTPResponse(status: status, headers: headers, text: text))
    }
}

/// The error `body` throws, or nil if it succeeds.
func thrownError<Failure: Error, T>(_ body: () throws(Failure) -> T) -> Failure? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The ``ExecutionError`` `body` throws, or nil if it succeeds.
func executionError<T>(_ body: () throws(ExecutionError) -> T) -> ExecutionError? { thrownError(body) }
