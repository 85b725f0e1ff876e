import GQLCore

/// `gqlc events publish CHANNEL [JSON]... [--input FILE|-] [--ws]` and `gqlc events subscribe CHANNEL [--count N]`
struct EventsInvocation: Equatable, Sendable {
    enum Action: String, Choice {
        case publish
        case subscribe
    }

    let action: Action
    let channel: String
    /// `publish`: the events given as arguments, parsed.
    var events: [JSONValue] = []
    /// `publish`: `--input FILE|-`, one event per line.
    var input: InputSource? = nil
    /// `publish --ws`: over the WebSocket instead of HTTP.
    var overWebSocket = false
    /// `subscribe`: stop after this many events.
    var count: Int? = nil
    /// `subscribe`: stop after this many seconds (the global `--timeout`, given on the command line).
    var duration: Double? = nil
    var endpoint: String? = nil
    var realtimeEndpoint: String? = nil
}

/// Publishes to and subscribes to the channels of an AppSync Events API.
enum EventsCommand: CommandDefinition {
    static let input = OptionSpec(
        long: "input", value: "FILE|-", help: "publish: read the events from FILE ('-' for standard input), one JSON value per line.")
    static let ws = OptionSpec(long: "ws", help: "publish: over the WebSocket (publish → publish_success) instead of HTTP.")
    static let count = OptionSpec(long: "count", value: "N", help: "subscribe: stop after N events.")
    static let endpoint = OptionSpec(
        long: "events-endpoint", value: "URL", environment: "GQLC_EVENTS_ENDPOINT",
        help: "The Events API's HTTP domain (https://ID.appsync-api.REGION.amazonaws.com, with or without /event) instead of custom.events.url.")
    static let realtimeEndpoint = OptionSpec(
        long: "events-realtime-endpoint", value: "URL", environment: "GQLC_EVENTS_REALTIME_ENDPOINT",
        help: "The real-time WebSocket URL (wss://…/event/realtime) instead of the one derived from the HTTP domain.")

    static let spec = CommandSpec(
        name: "events",
        abstract: "Publish to and subscribe to the channels of an AppSync Events API.",
        synopsis: [
            "publish CHANNEL [JSON]... [--input FILE|-] [--ws] [--events-endpoint URL]",
            "subscribe CHANNEL [--count N] [--timeout SECONDS] [--events-endpoint URL] [--events-realtime-endpoint URL]",
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    A channel is /NAMESPACE/SEGMENT… (1 to 5 segments of letters, digits and -); \
                    subscribe also takes a wildcard, /default/* for every channel below /default. \
                    publish sends each JSON value as one event, at most five to a request (POST …/event), \
                    each at most 240 KB (a larger one is refused before anything is sent), and prints \
                    {"successful": [{"identifier", "index"}…], "failed": […]}; status 3 when some failed. \
                    subscribe prints {"channel": …, "event": …} per event, one line each, until --count \
                    events, --timeout SECONDS, or Ctrl-C (it unsubscribes first; status 130), reconnecting \
                    as gqlc subscribe does.
                    """),
                .paragraph(
                    """
                    The API comes from --events-endpoint (or GQLC_EVENTS_ENDPOINT), else from the custom.events \
                    block of amplify_outputs.json (url, aws_region, default_authorization_type, api_key). \
                    Auth is as for GraphQL: --api-key (else custom.events.api_key), a user-pool sign-in \
                    (gqlc login), --auth-token, or IAM (--iam, --profile), which signs the HTTP publish and \
                    every WebSocket message.
                    """),
            ])
        ],
        arguments: [
            ArgumentSpec(name: "ACTION", help: "\(EventsInvocation.Action.alternatives)."),
            ArgumentSpec(name: "CHANNEL", help: "/NAMESPACE/SEGMENT…; subscribe takes /NAMESPACE/* too."),
        ],
        options: [input, ws, count, endpoint, realtimeEndpoint],
        examples: [
            Example("Publish two events to a room", #"gqlc events publish /default/room '{"text":"hi"}' '{"text":"bye"}'"#),
            Example("Publish every line of a file", "gqlc events publish /default/room --input events.ndjson"),
            Example("Print the next 10 events of every channel in /default", "gqlc events subscribe '/default/*' --count 10"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> EventsInvocation {
        let action = try EventsInvocation.Action.positional(arguments, at: 0, naming: "an action")
        let channel = try arguments.required(ArgumentSpec(name: "CHANNEL", help: ""), at: 1)
        let options = arguments.options
        do {
            _ = try EventsPublisher.channel(channel, wildcard: action == .subscribe)
        } catch {
            throw UsageError(error.description)
        }
        var invocation = EventsInvocation(action: action, channel: channel)
        invocation.endpoint = options.value(endpoint)
        invocation.realtimeEndpoint = options.value(realtimeEndpoint)
        switch action {
        case .publish:
            try options.expectAbsent([count]) { "'\($0.flagName)' is for 'events subscribe'" }
            for (index, text) in arguments.positionals.dropFirst(2).enumerated() {
                do {
                    invocation.events.append(try JSONValue.parse(text))
                } catch {
                    throw UsageError("event \(index + 1) is not JSON: \(error.message) at column \(error.column); quote strings as '\"text\"'")
                }
            }
            invocation.input = options.value(input).map { InputSource(argument: $0) }
            if invocation.input != nil && !invocation.events.isEmpty {
                throw UsageError("give the events as arguments or with '\(input.flagName)', not both")
            }
            if invocation.input == nil && invocation.events.isEmpty {
                throw UsageError("'events publish' needs at least one event: JSON arguments, or '\(input.flagName) FILE'")
            }
            invocation.overWebSocket = options.contains(ws)
        case .subscribe:
            try arguments.expectNoPositionals(after: 2)
            try options.expectAbsent([input, ws]) { "'\($0.flagName)' is for 'events publish'" }
            invocation.count = try options.positiveInteger(count)
            invocation.duration = try options.positiveSeconds(GlobalOptions.timeoutOption)
        }
        return invocation
    }
}
