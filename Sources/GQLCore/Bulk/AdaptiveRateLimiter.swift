import Synchronization

/// Paces the attempts of every worker of a bulk job, as the AWS SDKs' *adaptive* retry mode does: no limit
/// until the server throttles; then a token bucket whose rate falls on each throttle and climbs back on a
/// CUBIC curve while requests succeed.
///
/// A port of botocore's `retries/adaptive.py` (`ClientRateLimiter`, `RateClocker`), `retries/throttling.py`
/// (`CubicCalculator`) and `retries/bucket.py` (`TokenBucket`), the reference of the SDKs' "Retry behavior"
/// page (docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html, `retry_mode = adaptive`):
/// - on a throttle the rate becomes `β · rate` (β = 0.7), where rate is the measured send rate (the first
///   time) or the smaller of it and the bucket's rate, and that rate becomes CUBIC's `W_max`;
/// - on a success the rate is `C · (t − K)³ + W_max` (C = 0.4, `K = ∛(W_max · (1 − β) / C)`), `t` the
///   seconds since the last throttle;
/// - either way the bucket's rate is capped at twice the measured send rate, and never below 0.5/s;
/// - the measured rate is smoothed (0.8) over half-second buckets.
public final class AdaptiveRateLimiter: AttemptPacer, Sendable {
    private struct State {
        var enabled = false
        // CubicCalculator
        var wMax = 0.0
        var k = 0.0
        var lastFail: Double
        // RateClocker
        var measuredRate = 0.0
        var lastBucket: Double
        var sentInBucket = 0
        // TokenBucket
        var fillRate = 1.0
        var capacity = 1.0
        var tokens = 1.0
        var lastRefill: Double
    }

    static let beta = 0.7
    static let scale = 0.4
    static let smoothing = 0.8
    static let bucketsPerSecond = 2.0
    static let minimumRate = 0.5

    private let state: Mutex<State>
    private let now: @Sendable () -> Double
    private let sleep: @Sendable (Double) -> Void

    /// - Parameters:
    ///   - now: monotonic seconds (the default is the system's monotonic clock).
    ///   - sleep: waits that many seconds; the job's cancellation should end it early.
    public init(now: (@Sendable () -> Double)? = nil, sleep: @escaping @Sendable (Double) -> Void) {
        let clock = now ?? { MonotonicTime.seconds() }
        let start = clock()
        self.now = clock
        self.sleep = sleep
        state = Mutex(State(lastFail: start, lastBucket: (start * Self.bucketsPerSecond).rounded(.down) / Self.bucketsPerSecond, lastRefill: start))
    }

    /// The bucket's current rate in requests per second, or nil while no throttle has been seen.
    public var rate: Double? { state.withLock { $0.enabled ? $0.fillRate : nil } }

    /// Waits for a token when the limiter is on (after the first throttle); returns at once before that.
    public func beforeAttempt(cancellation: CancellationFlag?) {
        while true {
            if cancellation?.isCancelled == true { return }
            let wait: Double = state.withLock { state in
                guard state.enabled else { return 0 }
                Self.refill(&state, at: now())
                // A hair under one token counts as one: floating-point refills may never quite reach it.
                if state.tokens >= 1 - 1e-9 {
                    state.tokens = max(0, state.tokens - 1)
                    return 0
                }
                return max((1 - state.tokens) / state.fillRate, 0.001)
            }
            if wait <= 0 { return }
            sleep(wait)
        }
    }

    /// Records an answer: `throttled` when the server asked to slow down (429, a throttling error).
    public func afterAttempt(throttled: Bool) {
        state.withLock { state in
            let time = now()
            let measured = Self.recordSend(&state, at: time)
            let newRate: Double
            if throttled {
                let rateToUse = state.enabled ? min(measured, state.fillRate) : measured
                state.wMax = rateToUse
                state.k = Self.zeroPoint(wMax: rateToUse)
                state.lastFail = time
                newRate = rateToUse * Self.beta
                state.enabled = true
            } else {
                let elapsed = time - state.lastFail
                newRate = Self.scale * Self.cube(elapsed - state.k) + state.wMax
            }
            Self.setRate(&state, min(newRate, 2 * measured), at: time)
        }
    }

    // MARK: The parts of botocore's limiter

    private static func zeroPoint(wMax: Double) -> Double {
        let scaled = wMax * (1 - beta) / scale
        return scaled <= 0 ? 0 : cubeRoot(scaled)
    }

    private static func cube(_ value: Double) -> Double { value * value * value }

    private static func cubeRoot(_ value: Double) -> Double {
        // Newton's method; the standard library has no cbrt without Foundation or Glibc's overloads.
        var guess = max(value, 1)
        for _ in 0..<60 {
            let next = guess - (guess * guess * guess - value) / (3 * guess * guess)
            if abs(next - guess) < 1e-12 { return next }
            guess = next
        }
        return guess
    }

    /// RateClocker.record: counts one send and returns the smoothed send rate.
    private static func recordSend(_ state: inout State, at time: Double) -> Double {
        let bucket = (time * bucketsPerSecond).rounded(.down) / bucketsPerSecond
        state.sentInBucket += 1
        if bucket > state.lastBucket {
            let current = Double(state.sentInBucket) / (bucket - state.lastBucket)
            state.measuredRate = current * smoothing + state.measuredRate * (1 - smoothing)
            state.sentInBucket = 0
            state.lastBucket = bucket
        }
        return state.measuredRate
    }

    private static func refill(_ state: inout State, at time: Double) {
        let added = (time - state.lastRefill) * state.fillRate
        state.tokens = min(state.capacity, state.tokens + added)
        state.lastRefill = time
    }

    /// TokenBucket.max_rate's setter.
    private static func setRate(_ state: inout State, _ rate: Double, at time: Double) {
        guard state.enabled else { return }
        refill(&state, at: time)
        state.fillRate = max(rate, minimumRate)
        state.capacity = max(rate, 1)
        state.tokens = min(state.tokens, state.capacity)
    }
}

/// Paces a client's attempts: called before each attempt is sent and after each answer.
public protocol AttemptPacer: Sendable {
    /// Blocks until the attempt may go out (returns at once when cancelled).
    func beforeAttempt(cancellation: CancellationFlag?)
    /// Records an answer; `throttled` when the server asked to slow down.
    func afterAttempt(throttled: Bool)
}
