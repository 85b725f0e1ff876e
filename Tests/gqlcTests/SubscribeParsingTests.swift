import GQLCore
import Testing

@testable import gqlc

/// `gqlc subscribe`'s command line becomes the expected invocation.
@Suite struct SubscribeParsingTests {
    @Test func everythingGiven() throws {
        let parsed = try invocation([
            "subscribe", "Comment", "--on", "create", "--on", "DELETE", "--on", "create", "--where", "post=p1",
            "--include", "post", "--count", "5", "--timeout", "2.5", "--realtime-endpoint", "ws://h/graphql/realtime",
            "--no-reconnect",
        ])
        #expect(parsed.command == .subscribe(SubscribeInvocation(
            model: "Comment", events: [.onCreate, .onDelete], conditions: ["post=p1"], includes: ["post"], count: 5,
            duration: 2.5, realtimeEndpoint: "ws://h/graphql/realtime", reconnect: false)))
        // The global --timeout is still the per-request bound too.
        #expect(parsed.globals.context.timeout == 2.5)
    }

    @Test func defaultsListenForeverAndReconnect() throws {
        #expect(try invocation(["subscribe", "Post", "--on", "update"]).command == .subscribe(SubscribeInvocation(
            model: "Post", events: [.onUpdate], conditions: [], includes: [], count: nil, duration: nil,
            realtimeEndpoint: nil, reconnect: true)))
    }

    /// Without --on, a lower-case name is a custom subscription, with its arguments.
    @Test func aCustomSubscriptionTakesArguments() throws {
        #expect(try invocation(["subscribe", "onPostLiked", "postId=p1", "--count", "1"]).command == .subscribe(SubscribeInvocation(
            model: "onPostLiked", events: [], conditions: [], includes: [], count: 1, duration: nil,
            realtimeEndpoint: nil, reconnect: true, arguments: ["postId=p1"])))
        #expect(throws: UsageError("--where filters a model's events; give a custom subscription's arguments as ARG=VALUE")) {
            try invocation(["subscribe", "onPostLiked", "--where", "postId=p1"])
        }
        #expect(throws: UsageError("unexpected argument 'x=1'; usage: \(SubscribeCommand.spec.usageLine)")) {
            try invocation(["subscribe", "Post", "--on", "create", "x=1"])
        }
    }

    /// `--on` reads its words from SubscriptionEvent, as help and completion do.
    @Test func eventWordsAreOneListForParsingHelpAndCompletion() throws {
        #expect(SubscribeCommand.on.valueName == "create|update|delete")
        #expect(ValueCompletion.inferred(fromPlaceholder: SubscribeCommand.on.valueName ?? "") == .choices(["create", "update", "delete"]))
        #expect(HelpText.render(topic: "subscribe").hasPrefix("Usage: gqlc subscribe MODEL --on create|update|delete... "))
    }

    @Test func theRealtimeEndpointComesFromTheEnvironment() throws {
        let parsed = try invocation(["subscribe", "Post", "--on", "create"], environment: ["GQLC_REALTIME_ENDPOINT": "wss://x/graphql"])
        #expect(parsed.globals.realtimeEndpoint?.value == "wss://x/graphql")
    }

    @Test(arguments: [
        (["subscribe", "Post"], "'subscribe' needs --on create, --on update or --on delete (repeatable)"),
        (["subscribe", "Post", "--on", "upsert"], "invalid value 'upsert' for '--on': expected create, update or delete"),
        (["subscribe", "Post", "--on", "create", "--count", "-1"], "invalid value '-1' for '--count'"),
        (["subscribe", "Post", "--on", "create", "--realtime-endpoint", ""], "option '--realtime-endpoint' needs a non-empty value"),
        (["subscribe", "Post", "Comment", "--on", "create"], "unexpected argument 'Comment'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        do {
            _ = try CommandLineParser.parse(arguments, environment: [:])
            Issue.record("expected a usage error")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }
}
