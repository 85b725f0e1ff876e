import Synchronization

/// Temporary credentials kept for the process and fetched again from the chain before they expire, so that a
/// long listing or a subscription outlives them. Nothing is written to disk.
///
/// A refresh is due 15 minutes before `Expiration` (botocore's advisory window), or halfway through shorter
/// lifetimes. When a refresh fails the old credentials are kept (they may still work). Long-lived keys are
/// never refreshed. `onRefresh` hears of every attempt (for `--verbose`).
public final class RefreshingCredentials: Sendable {
    /// What a refresh came to.
    public enum Event: Sendable, Equatable {
        /// New credentials from the chain.
        case refreshed(ResolvedCredentials)
        /// The chain failed; the credentials of key id `keeping` stay in use.
        case failed(AWSAuthError, keeping: String)
    }

    private struct State {
        var current: ResolvedCredentials
        var refreshAt: Timestamp?
        var secrets: [String]
    }

    /// Where fresh credentials come from.
    public let chain: AWSCredentialChain
    private let state: Mutex<State>
    private let onRefresh: (@Sendable (Event) -> Void)?

    /// Starts from credentials the chain just gave at `fetchedAt`.
    public init(
        chain: AWSCredentialChain, initial: ResolvedCredentials, fetchedAt: Timestamp,
        onRefresh: (@Sendable (Event) -> Void)? = nil
    ) {
        self.chain = chain
        self.onRefresh = onRefresh
        state = Mutex(State(
            current: initial, refreshAt: Self.refreshMoment(initial, fetchedAt: fetchedAt),
            secrets: Self.secrets(of: initial.credentials)))
    }

    /// The credentials to sign with at `now`, refreshed first when due.
    public func credentials(at now: Timestamp) -> AWSCredentials {
        let (credentials, event): (AWSCredentials, Event?) = state.withLock { state in
            guard let due = state.refreshAt, due <= now else { return (state.current.credentials, nil) }
            let event: Event
            do throws(AWSAuthError) {
                let fresh = try chain.resolve()
                state.current = fresh
                state.secrets += Self.secrets(of: fresh.credentials)
                state.refreshAt = Self.refreshMoment(fresh, fetchedAt: now)
                event = .refreshed(fresh)
            } catch {
                event = .failed(error, keeping: state.current.credentials.accessKeyID)
            }
            return (state.current.credentials, event)
        }
        if let event { onRefresh?(event) }
        return credentials
    }

    /// Every secret key and session token handed out so far, for redaction.
    public var secrets: [String] { state.withLock { $0.secrets } }

    /// When credentials fetched at `fetchedAt` should be fetched again; nil when they do not expire.
    static func refreshMoment(_ credentials: ResolvedCredentials, fetchedAt: Timestamp) -> Timestamp? {
        guard let expiration = credentials.expiration else { return nil }
        let lifetime = expiration.seconds(since: fetchedAt)
        let window = 15.0 * 60
        return lifetime > 2 * window ? expiration.adding(seconds: -window) : fetchedAt.adding(seconds: max(0, lifetime / 2))
    }

    private static func secrets(of credentials: AWSCredentials) -> [String] {
        [credentials.secretAccessKey, credentials.sessionToken].compactMap { $0 }
    }
}

extension RefreshingCredentials: Equatable {
    /// The same cache.
    public static func == (lhs: RefreshingCredentials, rhs: RefreshingCredentials) -> Bool { lhs === rhs }
}
