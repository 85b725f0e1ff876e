/// What a live run (a subscription stream, a watched listing) tells the person watching besides its records, in
/// words that name no flag: the acknowledgement a script waits for, and news of the connection and of the listing.
public enum LiveNotice: Sendable, Equatable, CustomStringConvertible {
    /// The subscriptions were acknowledged: `subscribed: onCreatePost` (said as it is, for scripts to wait for).
    case subscribed([String])
    /// The connection broke; a new one is tried after `retryIn` seconds (`attempt` counts from 1).
    case connectionLost(reason: String, attempt: Int, retryIn: Double)
    /// Subscribed again after a lost connection: events between `missedFrom` and `missedTo` may have been missed.
    case resubscribed(missedFrom: Timestamp, missedTo: Timestamp)
    /// The server ended every subscription on its own.
    case completedByServer
    /// A watched listing is read again every `seconds`.
    case polling(model: String, every: Double)
    /// A watched listing was read again after a lost connection, which made `changes` changes.
    case relisted(model: String, changes: Int)
    /// Reading a watched listing again failed; it is tried again after `retryIn` seconds.
    case pollFailed(model: String, retryIn: Double)

    /// The notice of a subscription run's event: nil for results, errors and failures, which are not notices.
    public init?(_ event: LiveEvent) {
        switch event {
        case .subscribed(let name): self = .subscribed([name])
        case .connectionLost(let reason, let attempt, let delay): self = .connectionLost(reason: reason, attempt: attempt, retryIn: delay)
        case .resubscribed(let from, let to): self = .resubscribed(missedFrom: from, missedTo: to)
        case .completedByServer: self = .completedByServer
        case .graphQLErrors, .result, .failed: return nil
        }
    }

    /// The acknowledgement, which is said bare; every other notice is a diagnostic.
    public var isAcknowledgement: Bool {
        if case .subscribed = self { return true }
        return false
    }

    /// The notice in one line.
    public var description: String {
        switch self {
        case .subscribed(let names):
            return "subscribed: \(names.joined(separator: ", "))"
        case .connectionLost(let reason, let attempt, let delay):
            return "connection lost: \(reason); connecting again in \(DurationText.seconds(delay)) s (attempt \(attempt))"
        case .resubscribed(let from, let to):
            return "subscribed again; events between \(from.clockUTC) and \(to.clockUTC) UTC "
                + "(\(DurationText.seconds(to.seconds(since: from))) s) may have been missed"
        case .completedByServer:
            // Not the user's choice, so it is said.
            return "the server completed the subscription; no more events will come"
        case .polling(let model, let seconds):
            return "watching \(model) by listing it every \(DurationText.seconds(seconds)) s"
        case .relisted(let model, let changes):
            return "listed \(model) again after the lost connection: \(changes) changes"
        case .pollFailed(let model, let delay):
            return "listing \(model) again failed; trying again in \(DurationText.seconds(delay)) s"
        }
    }
}
