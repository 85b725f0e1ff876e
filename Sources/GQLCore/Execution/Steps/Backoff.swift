/// How waits grow between tries: `min(maximum, base · 2ⁿ⁻¹)` before try *n*, jittered so that many clients do not
/// come back at once. Shared by request retries (``RetryPolicy``) and real-time reconnects (``RealtimeSettings``).
public struct Backoff: Sendable, Equatable {
    /// How the random number spreads a wait under its ceiling.
    public enum Jitter: Sendable, Equatable {
        /// Anywhere in `0 ..< ceiling` (request retries).
        case full
        /// Half the ceiling to the whole of it (real-time reconnects).
        case upperHalf
    }

    /// The ceiling of the first wait, in seconds.
    public var base: Double
    /// The largest ceiling, in seconds.
    public var maximum: Double
    public var jitter: Jitter

    /// Makes a value from its parts.
    public init(base: Double, maximum: Double, jitter: Jitter) {
        self.base = base
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The ceiling of the wait before try `attempt` (1-based).
    public func ceiling(attempt: Int) -> Double {
        let exponent = max(0, min(attempt - 1, 62))
        return min(maximum, base * Double(sign: .plus, exponent: exponent, significand: 1))
    }

    /// The wait before try `attempt`; `random` is uniform in `0 ..< 1` (``RetryClock/random``).
    public func delay(attempt: Int, random: Double) -> Double {
        let unit = min(max(random, 0), 1)
        switch jitter {
        case .full: return ceiling(attempt: attempt) * unit
        case .upperHalf: return ceiling(attempt: attempt) * (0.5 + 0.5 * unit)
        }
    }
}
