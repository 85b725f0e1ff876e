/// How a live run (a subscription stream, a watched listing) ended, for the person watching: what is said last, and
/// the run's result (``kind``).
public enum LiveEnding {
    /// The run stopped as asked (its count, its time, the receiver, cancellation), or its listing ended it: nothing
    /// more to say.
    case ended(ResultKind)
    /// The server completed every subscription: said as ``LiveNotice/completedByServer``.
    case completedByServer(ResultKind)
    /// The subscriptions failed: said as the failure's message (which says when the sign-in itself is the problem).
    case failed(SubscriptionFailure)
    /// Refused as unauthorized, and the user-pool token could not be renewed: why it could not (the one thing to say).
    case renewalFailed(ContextError)
    /// A watched listing stopped before its end: its errors, or its request's failure, are said.
    case listingFailed(ListResult)
    /// The person watching left the live table (its quit key): not a failure.
    case left

    /// The run's result: a listing that was cut short by cancellation or by its output is `.cancelled`.
    public var kind: ResultKind {
        switch self {
        case .ended(let kind), .completedByServer(let kind): kind
        case .failed(let failure): failure.error.kind
        case .renewalFailed: .httpError
        case .listingFailed(let result):
            switch result.stop {
            case .endOfList, .limitReached: .success
            case .cancelled, .consumerFailed: .cancelled
            case .graphQLErrors, .partial, .failed: result.kind
            }
        case .left: .success
        }
    }
}

/// What a live run does with a subscription's events besides writing its results, as `gqlc subscribe` does: says the
/// notices as they come (the acknowledgement, a lost connection, a resubscription) to `say`, reports each event's
/// GraphQL errors to `errors`, and keeps the server's completion or a failure as the run's ending
/// (``ending(_:)``), to be said last, once the output is known to be open.
public struct LiveListener {
    /// Where notices go.
    public let say: (LiveNotice) -> Void
    /// Where an event's GraphQL errors go (its result follows).
    public let errors: ([GraphQLError]) -> Void
    /// The server's completion or the failure, kept for the ending.
    private var last: LiveEvent?

    /// A listener saying notices to `say` and reporting errors to `errors`.
    public init(say: @escaping (LiveNotice) -> Void, errors: @escaping ([GraphQLError]) -> Void) {
        self.say = say
        self.errors = errors
    }

    /// Says `event`'s notice or reports its errors, or keeps it as the ending; true for results, which it leaves to
    /// the caller.
    public mutating func hear(_ event: LiveEvent) -> Bool {
        switch event {
        case .result: return true
        case .graphQLErrors(let list): errors(list)
        case .completedByServer, .failed: last = event
        case .subscribed, .connectionLost, .resubscribed: LiveNotice(event).map(say)
        }
        return false
    }

    /// The ending of a run that ended `kind`, by what was kept: the server's completion, a failure (a token that could
    /// not be renewed being the one thing to say about a refusal), else just the kind.
    public func ending(_ kind: ResultKind) -> LiveEnding {
        switch last {
        case .completedByServer?:
            return .completedByServer(kind)
        case .failed(let failure)?:
            if let renewal = failure.renewalFailure { return .renewalFailed(renewal) }
            return .failed(failure)
        default:
            return .ended(kind)
        }
    }
}

extension SubscribeOperation {
    /// Runs over `context` for someone watching (see ``LiveListener``): each result goes to `results` until it
    /// returns false, notices and errors to `listener` as they come; returns how the run ended, to be said last.
    public func run(in context: RealtimeContext, listener: inout LiveListener, results: (LiveEvent) -> Bool) -> LiveEnding {
        let kind = run(in: context) { event in listener.hear(event) ? results(event) : true }
        return listener.ending(kind)
    }
}

extension SubscriptionFailure: RemedialMessage {
    /// The failure, and when a renewed user-pool token was refused too, that the sign-in is the problem and its remedy.
    public func message(remedy name: (Remedy) -> String) -> String {
        error.description + (refusedDespiteRenewal ? "; " + RequestAuthorization.userPoolRefusedHint(remedy: name) : "")
    }
}

extension RealtimeContext {
    /// A context for `endpoint`'s auth at the run's real-time URL: `given`, else `setting`, else the one derived from
    /// the endpoint (``RealtimeEndpoint/url(given:setting:forAPI:)``); `duration` caps the connection timeout.
    public init(
        endpoint: Endpoint, url given: String?, setting: Setting<String>?, renewal: TokenRenewal?, reconnect: Bool = true,
        duration: Double? = nil, cancellation: CancellationFlag? = nil
    ) throws(RealtimeEndpoint.ResolutionError) {
        let url = try RealtimeEndpoint.url(given: given, setting: setting, forAPI: endpoint.url.absoluteString)
        self.init(endpoint: endpoint, url: url, renewal: renewal, reconnect: reconnect, duration: duration, cancellation: cancellation)
    }
}
