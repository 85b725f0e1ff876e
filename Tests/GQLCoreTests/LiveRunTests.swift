import Foundation
import Testing
@testable import GQLCore

/// A live run as `gqlc subscribe` and `list --watch` run it, over the fake real-time server: which events are said
/// when (``LiveListener``), how the run ends (``LiveEnding``), and the words of its failures.
@Suite struct LiveRunTests {
    /// What a listener was told, in order.
    final class Heard: @unchecked Sendable {
        private(set) var lines: [String] = []
        func say(_ notice: LiveNotice) { lines.append("notice: \(notice)") }
        func errors(_ errors: [GraphQLError]) { lines.append("errors: \(errors.map(\.message))") }
        func add(_ line: String) { lines.append(line) }
        var listener: LiveListener { LiveListener(say: say, errors: errors) }
    }

    static let unauthorized = RealtimeError(errorType: "UnauthorizedException", message: "Token has expired.", errorCode: nil)

    @Test func noticesAndErrorsAreSaidAsTheyComeAndTheServersCompletionIsTheEnding() throws {
        let server = FakeRealtimeServer([
            .init(events: [(0, SubscribeOperationTests.post("p1", errors: true)), (0, SubscribeOperationTests.post("p2"))], completeWhenDone: true)
        ])
        let heard = Heard()
        var listener = heard.listener
        let ending = try SubscribeOperationTests.onCreatePost(limit: nil).run(
            in: try SubscribeOperationTests.context(server), listener: &listener
        ) { event in
            if case .result(_, let value, _) = event { heard.add("result \(value["id"]?.stringValue ?? "null")") }
            return true
        }
        #expect(heard.lines == [
            "notice: subscribed: onCreatePost", #"errors: ["field denied"]"#, "result p1", "result p2",
        ])
        // The completion is not said as it comes: it is the ending, said once the output is known to be open.
        guard case .completedByServer(let kind) = ending else {
            Issue.record("expected the server's completion, got \(ending)")
            return
        }
        #expect(kind == .partial && ending.kind == .partial)
    }

    @Test func aRefusalWhoseTokenCouldNotBeRenewedEndsWithWhyItCouldNot() throws {
        let renewal = TokenRenewal { _ throws(ContextError) in throw .tokenMissing }
        let server = FakeRealtimeServer([.init(refuseFirstStart: 0)])
        var listener = Heard().listener
        let ending = try SubscribeOperationTests.onCreatePost(limit: 1).run(
            in: try SubscribeOperationTests.context(server, token: "token-1", renewal: renewal), listener: &listener
        ) { _ in true }
        guard case .renewalFailed(.tokenMissing) = ending else {
            Issue.record("expected the renewal's failure, got \(ending)")
            return
        }
        #expect(ending.kind == .httpError)
    }

    @Test func aRefusalDespiteARenewedTokenSaysTheSignInIsTheProblem() {
        let refused = SubscriptionError.refused([Self.unauthorized])
        var listener = Heard().listener
        _ = listener.hear(.failed(SubscriptionFailure(error: refused, renewalFailure: nil, renewable: true)))
        guard case .failed(let failure) = listener.ending(.httpError) else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.message(remedy: { _ in "SIGN IN" }) == refused.description
            + "; the user-pool sign-in was not accepted; SIGN IN, and check that the API allows user-pool auth")
        // Without a token to renew, the refusal is said alone.
        let alone = SubscriptionFailure(error: refused, renewalFailure: nil, renewable: false)
        #expect(alone.description == refused.description)
        #expect(LiveEnding.failed(alone).kind == .httpError)
    }

    @Test func aWatchedListingsFailureIsItsStatusAndACutShortOneIsCancelled() {
        func ending(_ stop: ListStop) -> ResultKind {
            LiveEnding.listingFailed(ListResult(stop: stop, resume: .start, delivered: 0, pages: 0)).kind
        }
        #expect(ending(.graphQLErrors([GraphQLError(message: "denied")])) == .graphQLErrors)
        #expect(ending(.partial([])) == .partial)
        #expect(ending(.consumerFailed(OutputGone())) == .cancelled)
        #expect(ending(.cancelled) == .cancelled)
        #expect(ending(.limitReached) == .success)
        #expect(LiveEnding.left.kind == .success)
    }

    @Test func aBadRealTimeURLNamesTheParameterWhereItWasGiven() {
        func message(_ given: String?, _ setting: Setting<String>?, _ api: String = "http://127.0.0.1:4000/graphql") -> String? {
            do {
                _ = try RealtimeEndpoint.url(given: given, setting: setting, forAPI: api)
                return nil
            } catch {
                return error.message(naming: { $0 == .realtimeEndpoint ? "--rt" : "?" })
            }
        }
        let bad = "invalid WebSocket URL 'http://x/graphql'"
        #expect(message("http://x/graphql", nil)?.hasPrefix("--rt: " + bad) == true)
        #expect(message(nil, Setting(value: "http://x/graphql", origin: .environment("GQLC_RT")))?.hasPrefix("$GQLC_RT: " + bad) == true)
        #expect(message(nil, Setting(value: "http://x/graphql", origin: .named(environment: "prod", path: "/c", line: 3)))?
            .hasPrefix("environment 'prod' (/c:3): " + bad) == true)
        let derived = message(nil, nil, "ftp://example.com/graphql")
        #expect(derived?.hasPrefix("invalid WebSocket URL 'ftp://example.com/graphql'") == true)
        #expect(derived?.hasSuffix("; pass --rt URL") == true)
    }

    // MARK: - A watch on its screen

    /// Runs `operation` in `mode` on a screen of JSON lines: its status, and what was heard, each ending with whether
    /// the screen had been put away when it was told.
    static func watch(_ operation: WatchOperation, _ mode: WatchMode, in context: APIContext) -> (ResultKind, [String]) {
        let heard = Heard()
        let printer = ResultPrinter(sink: LiveOutputTests.Recording(), format: .json, style: .compact, coloured: false, width: nil)
        let screen = WatchScreen(.lines(printer.beginList()), model: "Post", keyFields: ["id"], say: heard.say)
        var listener = heard.listener
        let status = operation.run(mode, on: screen, in: context, cancellation: CancellationFlag(), listener: &listener) { ending in
            let failed = if case .listingFailed = ending { "listing failed" } else { "ended" }
            // A screen put away takes nothing more.
            heard.add("\(failed) \(ending.kind), screen put away: \(!screen.show(.changes([], records: [])))")
            return ending.kind
        }
        return (status, heard.lines)
    }

    @Test func theSubscriptionsEndingIsToldBeforeTheScreenIsPutAway() throws {
        let transport = WatchOperationTests.server([#"{"id":"p1","title":"a"}"#])
        let (operation, subscriptions, context) = try WatchOperationTests.subscriptionWatch(transport)
        let server = FakeRealtimeServer([.init(completeWhenDone: true)])
        let (status, heard) = Self.watch(operation, .subscriptions(subscriptions, try SubscribeOperationTests.context(server)), in: context)
        #expect(status == .success)
        #expect(heard == ["notice: subscribed: onCreatePost, onUpdatePost, onDeletePost", "ended success, screen put away: false"])
    }

    @Test func aSubscriptionWatchsFailedListingIsToldAfterTheScreenIsPutAwayAndIsItsStatus() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"errors":[{"message":"denied"}]}"#)])
        let (operation, subscriptions, context) = try WatchOperationTests.subscriptionWatch(transport)
        let server = FakeRealtimeServer([.init()])
        let (status, heard) = Self.watch(operation, .subscriptions(subscriptions, try SubscribeOperationTests.context(server)), in: context)
        #expect(status == .graphQLErrors)
        #expect(heard == [
            "notice: subscribed: onCreatePost, onUpdatePost, onDeletePost", "ended graphQLErrors, screen put away: false",
            "listing failed graphQLErrors, screen put away: true",
        ])
    }

    @Test func aPolledListingsFirstFailureIsToldWhileTheScreenIsUpAndIsTheStatus() throws {
        let transport = FakeTransport([Fixtures.ok(#"{"errors":[{"message":"denied"}]}"#)])
        let context = APIContext(schema: try TestSchemas.blog(), client: try Fixtures.client(transport, retries: 0))
        let operation = WatchOperation(
            model: "Post", requests: try ListOperation("Post", builder: context.builder).requests, pageSize: 100, keyFields: ["id"])
        let (status, heard) = Self.watch(operation, .polling(every: 5), in: context)
        #expect(status == .graphQLErrors)
        #expect(heard == ["notice: watching Post by listing it every 5.0 s", "listing failed graphQLErrors, screen put away: false"])
    }

    // MARK: - What is subscribed to, and the Events API's runs

    @Test func aNameWithEventsIsAModelsSubscriptionsAndWithoutThemACustomSubscription() throws {
        let builder = RequestBuilder(schema: try TestSchemas.customOperations())
        let custom = try SubscribeOperation(
            "onPostLiked", events: [], conditions: [], arguments: RecordValues(assignments: ["postId=p1"]), includes: [], builder: builder)
        #expect(custom.subscriptions.map(\.name) == ["onPostLiked"] && custom.changes.isEmpty)
        let model = try SubscribeOperation(
            "Post", events: [.onCreate, .onDelete], conditions: [], arguments: RecordValues(assignments: []), includes: [], builder: builder)
        #expect(model.subscriptions.map(\.name) == ["onCreatePost", "onDeletePost"])
        // A model named without its events is refused as such, before anything is built.
        let refusal = thrownError { () throws(SubscribeBuildError) in
            try SubscribeOperation("Post", events: [], conditions: [], arguments: RecordValues(assignments: []), includes: [], builder: builder)
        }
        guard case .modelNeedsEvents("Post")? = refusal else {
            Issue.record("expected modelNeedsEvents, got \(String(describing: refusal))")
            return
        }
    }

    @Test func anEventsSubscriptionReconnectsAndLastsItsTimeAndAPublishNeither() throws {
        let api = try EventsAPI(url: "https://abc.appsync-api.eu-west-1.amazonaws.com/event")
        let endpoint = try Endpoint(url: api.httpURL.absoluteString, apiKey: Fixtures.apiKey, timeout: 30)
        let subscribing = api.connection(endpoint: endpoint, renewal: nil, subscribing: true, duration: 5, cancellation: nil)
        #expect(subscribing.settings.reconnect && subscribing.settings.timeout == 5 && subscribing.settings.dialect == .events)
        #expect(subscribing.settings.url == api.realtimeURL)
        let publishing = api.connection(endpoint: endpoint, renewal: nil, subscribing: false, duration: 5, cancellation: nil)
        #expect(!publishing.settings.reconnect && publishing.settings.timeout == 30)
        let channel = RealtimeSubscription(channel: "/default/*")
        #expect(channel.name == "/default/*" && channel.request.query.isEmpty)
    }

    @Test func aPublishIsPartialWhenTheAPIRefusedSomeEventsAndFailedWhenItStopped() throws {
        let someRefused = FakeTransport([
            Fixtures.ok(#"{"successful":[{"identifier":"e0","index":0}],"failed":[{"index":1,"code":"Bad","message":"too big"}]}"#)
        ])
        let operation = EventsPublishOperation(channel: "/default/room", texts: ["{}", "{}"])
        #expect(operation.run(client: try Fixtures.client(someRefused, retries: 0)).kind == .partial)
        let allPublished = FakeTransport([Fixtures.ok(#"{"successful":[{"identifier":"e0","index":0},{"identifier":"e1","index":1}],"failed":[]}"#)])
        #expect(operation.run(client: try Fixtures.client(allPublished, retries: 0)).kind == .success)
        let refused = FakeTransport([Fixtures.status(401, #"{"errors":[{"errorType":"UnauthorizedException","message":"no"}]}"#)])
        #expect(operation.run(client: try Fixtures.client(refused, retries: 0)).kind == .httpError)
    }
}
