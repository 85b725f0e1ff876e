import GQLCore

/// `gqlc subscribe MODEL --on create|update|delete... [--where EXPR]... [--include PATH]... [--count N]
/// [--timeout SECONDS] [--realtime-endpoint URL] [--no-reconnect]`
struct SubscribeInvocation: Equatable, Sendable {
    let model: String
    /// The events, in the order given, without repeats.
    let events: [SubscriptionEvent]
    /// `--where` expressions, AND-ed.
    let conditions: [String]
    let includes: [String]
    /// Stop after this many events.
    let count: Int?
    /// Stop after this many seconds (the global `--timeout`, given on the command line).
    let duration: Double?
    /// `--realtime-endpoint`, if given.
    let realtimeEndpoint: String?
    let reconnect: Bool
    /// For a custom subscription (no `--on`; `model` is then its name): its `ARG=VALUE` / `ARG:=JSON` arguments.
    var arguments: [String] = []
    /// `--envelope`: each event as `{"event": "create", "item": {…}}` instead of the record alone.
    var envelope = false

    /// A custom subscription (`subscribe onPostLiked postId=p1`) rather than a model's events.
    var isCustom: Bool { events.isEmpty }
}

/// Prints a model's create, update and delete events as they happen, over AppSync's real-time WebSocket.
enum SubscribeCommand: CommandDefinition {
    static let on = OptionSpec(
        long: "on", value: SubscriptionEvent.placeholder, repeatable: true,
        help: "create, update or delete: the mutations to watch (onCreate<MODEL>, …). Repeat it to watch several over one connection.")
    static let whereOption = OptionSpec(
        long: "where", value: "EXPR", repeatable: true,
        help: "Only events whose record matches EXPR, filtered by the server (the list grammar, without FIELD? and FIELD!?); several are AND-ed.").completing(.where)
    static let count = OptionSpec(long: "count", value: "N", help: "Stop after N events.")
    static let realtimeEndpoint = OptionSpec(
        long: "realtime-endpoint", value: "URL", environment: GlobalOptions.realtimeEndpointVariable,
        help: "The real-time WebSocket URL (ws:// or wss://) instead of the one derived from the endpoint.")
    static let envelope = OptionSpec(
        long: "envelope",
        help: """
            Print each event as {"event": "create"|"update"|"delete", "item": {…}} so that a create and a delete \
            of the same record can be told apart ({"event": "data", "subscription": NAME, "item": …} for a custom \
            subscription). --raw-response prints the server's data messages as they came instead.
            """)
    static let noReconnect = OptionSpec(
        long: "no-reconnect", help: "Exit with status 6 when the connection is lost instead of connecting again.")

    static let spec = CommandSpec(
        name: "subscribe",
        abstract: "Print model changes or custom subscription events as they happen.",
        synopsis: [
            """
            MODEL --on \(SubscriptionEvent.placeholder)... [--where EXPR]... [--include PATH]... [--count N] \
            [--envelope] [--timeout SECONDS] [--realtime-endpoint URL] [--no-reconnect]
            """,
            "NAME [ARG=VALUE | ARG:=JSON]... [--include PATH]... [--count N] [--timeout SECONDS] [--realtime-endpoint URL]",
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Subscribes to onCreate<MODEL>, onUpdate<MODEL> and onDelete<MODEL> over AppSync's \
                    real-time WebSocket and prints each event's record as get prints it: one JSON \
                    object per line as it arrives, or with --output json one array closed when the \
                    subscription ends. Once the server has acknowledged a subscription, gqlc writes \
                    'subscribed: onCreatePost' on stderr, so a script can wait for that line before \
                    it changes data. AppSync sends the fields the triggering mutation selected; \
                    the others arrive as null.
                    """),
                .paragraph(
                    """
                    The real-time endpoint is derived from the GraphQL endpoint: the AppSync host \
                    ID.appsync-api.REGION.amazonaws.com becomes \
                    wss://ID.appsync-realtime-api.REGION.amazonaws.com/graphql, any other URL gets \
                    /realtime appended (http becomes ws, https wss). --realtime-endpoint or \
                    GQLC_REALTIME_ENDPOINT overrides it. Authorization is the same as for the other \
                    commands: API key, token, user pool or IAM, the mode chosen from the model's auth \
                    rules as get and list choose it. Each new connection sends a user-pool token \
                    refreshed when it is about to expire, or when the server refuses it.
                    """),
                .paragraph(
                    """
                    It runs until --count events have been printed or --timeout SECONDS have passed \
                    (status 0; for subscribe, --timeout is how long to listen, and it also bounds \
                    the connection's set-up), until Ctrl-C or SIGTERM (the subscriptions are stopped and the \
                    connection closed; status 130), or an error: 5 when the server refuses the \
                    connection, 1 when it refuses a subscription, 6 for a network failure. If the \
                    connection is lost, or the server's keep-alives stop, gqlc connects again after a \
                    short random delay, subscribes again and says on stderr for which span events may \
                    have been missed; after 10 failed attempts in a row it exits with status 6.
                    """),
                .paragraph(
                    """
                    A custom subscription of the schema (a.subscription() in Gen 2) is named instead \
                    of a model, without --on, with its arguments as ARG=VALUE or ARG:=JSON, checked \
                    and converted as for gqlc query; its events are printed the same way. Any other \
                    subscription document can be given to gqlc raw. --dry-run prints each subscription's request (the data \
                    of its start message) without connecting.
                    """),
            ])
        ],
        arguments: [SharedOptions.model],
        options: [on, whereOption, SharedOptions.include, count, envelope, realtimeEndpoint, noReconnect],
        examples: [
            Example("Print new posts as they are created", "gqlc subscribe Post --on create"),
            Example(
                "Watch the comments of post p1 being added and removed",
                "gqlc subscribe Comment --on create --on delete --where post=p1"),
            Example(
                "The next update of a post rated 4 or more, waiting a minute at most",
                "gqlc subscribe Post --on update --where 'rating>=4' --count 1 --timeout 60"),
            Example("A custom subscription, with its argument", "gqlc subscribe onPostUpdated postId=p1"),
            Example(
                "Creates and deletes of posts, each line saying which it was",
                "gqlc subscribe Post --on create --on delete --envelope"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> SubscribeInvocation {
        let model = try arguments.required(SharedOptions.model, at: 0)
        guard GraphQLName.isValid(model) else {
            throw UsageError("invalid name '\(model)': expected a model such as 'Post' or a custom subscription such as 'onPostLiked'")
        }
        let options = arguments.options
        var events: [SubscriptionEvent] = []
        for text in options.values(on) {
            let event = try SubscriptionEvent.value(text, for: on, ignoringCase: true)
            if !events.contains(event) { events.append(event) }
        }
        // Without --on, a name that starts in lower case is a custom subscription's (a field); a model's needs --on.
        let isCustom = events.isEmpty && model.first?.isUppercase == false
        if isCustom {
            if options.contains(whereOption) {
                throw UsageError("--where filters a model's events; give a custom subscription's arguments as ARG=VALUE")
            }
        } else {
            try arguments.expectNoPositionals(after: 1)
            guard !events.isEmpty else { throw needsEvents }
        }
        let duration = try options.positiveSeconds(GlobalOptions.timeoutOption)
        let endpoint = try options.nonEmptyValue(realtimeEndpoint)
        return SubscribeInvocation(
            model: model, events: events, conditions: options.values(whereOption), includes: try SharedOptions.includes(arguments),
            count: try options.positiveInteger(count),
            duration: duration, realtimeEndpoint: endpoint, reconnect: !options.contains(noReconnect),
            arguments: isCustom ? Array(arguments.positionals.dropFirst()) : [], envelope: options.contains(envelope))
    }

    /// A model named without `--on`.
    static let needsEvents = UsageError(
        "'subscribe' needs --on create, --on update or --on delete (repeatable); usage: \(spec.usageLine)")
}

extension SubscriptionEvent: Choice {
    /// `create`, `update`, `delete`, the change each reports (any case is accepted).
    public var word: String { ChangeKind(self).rawValue }
}
