/// How failed requests are retried: how often, and how long to wait in between.
///
/// Retries happen on what is transient: network errors, timeouts, HTTP 429, 500, 502, 503 and 504, and only for requests that are safe to repeat
/// (see ``mayRetry(_:retryMutations:mutationIsIdempotent:)``). Delays use exponential backoff with full jitter:
/// retry *n* waits a random time in `0 ..< min(maximumDelay, baseDelay · 2ⁿ⁻¹)`, unless the server sent
/// `Retry-After`, which is honoured up to ``maximumRetryAfter``.
public struct RetryPolicy: Sendable, Equatable {
    /// How many times a request is sent again after the first attempt (`--retries N`).
    public var maxRetries: Int
    /// The backoff ceiling of the first retry, in seconds.
    public var baseDelay: Double
    /// The largest backoff ceiling, in seconds.
    public var maximumDelay: Double
    /// The longest `Retry-After` that is waited for, in seconds; longer requests are cut to this.
    public var maximumRetryAfter: Double

    /// Makes a value from its parts.
    public init(
        maxRetries: Int = Defaults.retries, baseDelay: Double = Defaults.retryBaseDelay, maximumDelay: Double = Defaults.retryMaximumDelay,
        maximumRetryAfter: Double = Defaults.maximumRetryAfter
    ) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// A policy that never retries.
    public static let never = RetryPolicy(maxRetries: 0)

    /// The waits between retries: from `baseDelay` up to `maximumDelay`, with full jitter.
    public var backoff: Backoff { Backoff(base: baseDelay, maximum: maximumDelay, jitter: .full) }

    /// The ceiling of the backoff before retry `retry` (1-based): `min(maximumDelay, baseDelay · 2^(retry-1))`.
    public func backoffCeiling(retry: Int) -> Double {
        backoff.ceiling(attempt: retry)
    }

    /// The wait before retry `retry` (1-based). `random` is uniform in `0 ..< 1`; `retryAfter` is the server's
    /// requested wait in seconds, if any.
    public func delay(retry: Int, retryAfter: Double?, random: Double) -> Double {
        if let retryAfter { return min(max(0, retryAfter), maximumRetryAfter) }
        return backoff.delay(attempt: retry, random: random)
    }

    /// Whether a failed attempt may be repeated, by the rules:
    /// queries are always safe; mutations only with `--retry-mutations` and only when repeating them cannot
    /// do harm twice — a create that carries its client-generated key, an update or delete with an `--if`
    /// condition (`mutationIsIdempotent`). Subscriptions are never POSTed, so never retried.
    public static func mayRetry(_ operationType: OperationType, retryMutations: Bool, mutationIsIdempotent: Bool) -> Bool {
        switch operationType {
        case .query: return true
        case .mutation: return retryMutations && mutationIsIdempotent
        case .subscription: return false
        }
    }
}

/// Why an attempt is being retried.
public enum RetryReason: Sendable, Equatable, CustomStringConvertible {
    /// The connection failed.
    case network(String)
    /// No response in time.
    case timeout
    /// The server answered with a retryable status (see ``RetryReason/retryableStatuses``).
    case status(Int)

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .network(let detail): return "network error: \(detail)"
        case .timeout: return "timeout"
        case .status(429): return "HTTP 429 (throttled)"
        case .status(let status): return "HTTP \(status)"
        }
    }

    /// The reason to retry after this transport failure, or nil if it must not be retried.
    static func forTransportError(_ error: TransportError) -> RetryReason? {
        switch error {
        case .network(let detail): return .network(detail)
        case .timeout: return .timeout
        case .cancelled, .invalidURL, .tls, .unavailable, .responseTooLarge, .badResponse: return nil
        }
    }

    /// The statuses that say "try again later": throttled, and the server or a gateway failing for now.
    /// Any other 4xx is the request's fault and 501 (not implemented) or 505 will not change, so they are final.
    public static let retryableStatuses: Set<Int> = [429, 500, 502, 503, 504]

    /// The reason to retry after this status, or nil when repeating the request cannot help.
    static func forStatus(_ status: Int) -> RetryReason? {
        retryableStatuses.contains(status) ? .status(status) : nil
    }
}

/// The clocks and dice of the request steps (and of real-time reconnects), injectable so that tests check waits
/// without sleeping and timings without real time.
public struct RetryClock: Sendable {
    /// Waits the given number of seconds (may return early when cancelled).
    public var sleep: @Sendable (_ seconds: Double) -> Void
    /// A uniform random number in `0 ..< 1`: the jitter of every backoff.
    public var random: @Sendable () -> Double
    /// The current wall-clock time, for signing and `Retry-After` dates.
    public var now: @Sendable () -> Timestamp
    /// Monotonic seconds (``MonotonicTime``), for durations such as a traced attempt's.
    public var monotonic: @Sendable () -> Double

    /// Makes a value from its parts.
    public init(
        sleep: @escaping @Sendable (Double) -> Void, random: @escaping @Sendable () -> Double, now: @escaping @Sendable () -> Timestamp,
        monotonic: @escaping @Sendable () -> Double = { MonotonicTime.seconds() }
    ) {
        self.sleep = sleep
        self.random = random
        self.now = now
        self.monotonic = monotonic
    }

    /// Real time: sleeps on `cancellation` (so Ctrl-C ends a wait), system randomness and clocks.
    public static func live(cancellation: CancellationFlag?) -> RetryClock {
        RetryClock(
            sleep: { seconds in
                if let cancellation { cancellation.wait(seconds: seconds) } else { ThreadSleep.seconds(seconds) }
            },
            random: { Double.random(in: 0..<1) },
            now: { Timestamp.now() })
    }
}

/// Parses the `Retry-After` response header.
public enum RetryAfter {
    /// The wait in seconds that `value` asks for: delta-seconds (`120`) or an HTTP-date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`), relative to `now`. A date in the past means 0. Nil if unparsable.
    public static func seconds(from value: String, now: Timestamp) -> Double? {
        let trimmed = value.trimmingSpaces
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit) {
            return Double(trimmed) ?? .greatestFiniteMagnitude
        }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date.seconds(since: now))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses the IMF-fixdate form `Sun, 06 Nov 1994 08:49:37 GMT` (the only form servers may send today).
    static func httpDate(_ text: String) -> Timestamp? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" || parts[5] == "UTC",
            let day = Int(parts[1]), (1...31).contains(day),
            let monthIndex = months.firstIndex(of: parts[2].lowercased()),
            let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return Timestamp(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
