import Synchronization

/// Paces the attempts of every worker of a bulk job, as the AWS SDKs' *adaptive* retry mode does: no limit
/// until the server throttles; then a token bucket whose rate falls when throttles say the pace is too high and
/// climbs back on a CUBIC curve while requests succeed.
///
/// Built on botocore's `retries/adaptive.py` (`ClientRateLimiter`, `RateClocker`), `retries/throttling.py`
/// (`CubicCalculator`) and `retries/bucket.py` (`TokenBucket`), the reference of the SDKs' "Retry behavior"
/// page (docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html, `retry_mode = adaptive`):
/// - a cut makes the rate `β · rate` (β = 0.7), where rate is the measured send rate (the first time) or the
///   smaller of it and the bucket's rate, and that rate becomes CUBIC's `W_max`;
/// - on a success the rate is `C · (t − K)³ + W_max` (C = 0.4, `K = ∛(W_max · (1 − β) / C)`), `t` the
///   seconds since the last cut;
/// - either way the bucket's rate is capped at twice the measured send rate, and never below 0.5/s;
/// - the measured rate is smoothed (0.8) over half-second buckets.
///
/// Where botocore cuts on every throttle, this limiter judges throttles by their share of the answers, so that
/// throttles which do not depend on the rate (a server that refuses a steady share of requests, whatever the pace)
/// cannot slow a job to a crawl:
/// - the first throttle cuts at once; after that, answers are judged in rounds of ``roundLength``, and a round
///   cuts once when its share of throttles is above what is tolerated (at first, any throttle);
/// - when a round after a cut was sent clearly slower than the round that caused it (or clearly faster, as a pace
///   started too low climbs back), yet is throttled about as often (within a factor of 0.75 either way, and at most
///   about a third of the answers), the pace does not change how often throttles come: they are independent of it.
///   The pace before the cut comes back, and that share of throttles (with a margin) is tolerated from then on; a
///   share clearly above it still cuts;
/// - a throttle carrying `Retry-After` holds every worker until then.
public final class AdaptiveRateLimiter: AttemptPacer, Sendable {
    private struct State {
        var enabled = false
        // CubicCalculator
        var wMax = 0.0
        var k = 0.0
        var lastFail: Double
        // RateClocker
        /// When the first attempt went out: the send rate is measured from there, not from the job's start (a loaded
        /// machine may take seconds to start its workers, and that time is no sign of a slow server).
        var firstAttempt: Double?
        var measuredRate = 0.0
        var lastBucket: Double
        var sentInBucket = 0
        var sentBeforeFirstBucket = 0
        // TokenBucket
        var fillRate = 1.0
        var capacity = 1.0
        var tokens = 1.0
        var lastRefill: Double
        // Rounds of answers
        var answers = 0
        var throttles = 0
        var roundStart: Double
        /// The round that ended with the last cut: its share of throttles, the rate it was sent at and the bucket's
        /// rate before the cut.
        var lastCut: (fraction: Double, sendRate: Double, rateBefore: Double)?
        /// The share of throttles found not to depend on the rate, once found.
        var independentFraction: Double?
        // Retry-After
        var resumeAt = -Double.infinity
        // Notices
        var saidRate: Double?
        var saidAt = -Double.infinity
        var retryAfterSaidAt = -Double.infinity
    }

    static let beta = 0.7
    static let scale = 0.4
    static let smoothing = 0.8
    static let bucketsPerSecond = 2.0
    static let minimumRate = 0.5
    /// Answers per round: enough that the requests in flight at a cut (sent at the old rate) are a minority of it.
    static let roundLength = 30
    /// A round after a cut whose share of throttles is within this factor of the share that caused the cut (either
    /// way) shows that slowing down did not make throttles rarer. (A cut to 0.7× of a rate up to twice a server's limit lowers
    /// a rate-driven share by well over half.)
    static let unchangedShare = 0.75
    /// A round is slower than another when sent at most at this part of its rate (CUBIC climbs back fast, so a cut
    /// does not always slow the next round).
    static let slowerRound = 0.8
    /// Above this share, throttles are always taken as a reason to slow down.
    static let largestIndependentShare = 0.35
    /// Throttles that do not depend on the rate are tolerated up to `share · 1.5 + 0.05`.
    static let toleranceFactor = 1.5
    static let toleranceMargin = 0.05
    /// A slowdown is said when a cut takes the rate to half the pace last said or below, at most this often (seconds).
    static let noticeInterval = 5.0
    /// A `Retry-After` wait is said at most this often (seconds); the client says each long one anyway.
    static let retryAfterNoticeInterval = 30.0

    private let state: Mutex<State>
    private let now: @Sendable () -> Double
    private let sleep: @Sendable (Double) -> Void
    private let notice: (@Sendable (PacingNotice) -> Void)?

    /// - Parameters:
    ///   - now: monotonic seconds (the default is the system's monotonic clock).
    ///   - sleep: waits that many seconds; the job's cancellation should end it early.
    ///   - notice: told when pacing starts or changes materially, and why (see ``PacingNotice``); called on the
    ///     thread of the answer that caused it.
    public init(
        now: (@Sendable () -> Double)? = nil, sleep: @escaping @Sendable (Double) -> Void,
        notice: (@Sendable (PacingNotice) -> Void)? = nil
    ) {
        let clock = now ?? { MonotonicTime.seconds() }
        let start = clock()
        self.now = clock
        self.sleep = sleep
        self.notice = notice
        state = Mutex(State(
            lastFail: start, lastBucket: (start * Self.bucketsPerSecond).rounded(.down) / Self.bucketsPerSecond, lastRefill: start,
            roundStart: start))
    }

    /// The bucket's current rate in requests per second, or nil while no throttle has been seen.
    public var rate: Double? { state.withLock { $0.enabled ? $0.fillRate : nil } }

    /// Waits for a token when the limiter is on (after the first throttle), and while a `Retry-After` lasts;
    /// returns at once before the first throttle.
    public func beforeAttempt(cancellation: CancellationFlag?) {
        while true {
            if cancellation?.isCancelled == true { return }
            let wait: Double = state.withLock { state in
                let time = now()
                Self.startClock(&state, at: time)
                if time < state.resumeAt { return state.resumeAt - time }
                guard state.enabled else { return 0 }
                Self.refill(&state, at: time)
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

    /// Records an answer: `throttled` when the server asked to slow down (429, a throttling error), with the
    /// seconds of its `Retry-After` when it gave one.
    public func afterAttempt(throttled: Bool, retryAfter: Double?) {
        let said: [PacingNotice] = state.withLock { state in
            let time = now()
            var said: [PacingNotice] = []
            if throttled, let retryAfter, retryAfter > 0 {
                let until = time + min(retryAfter, Defaults.maximumRetryAfter)
                // Said when a wait starts, not by each worker that meets the same one, and not on every throttle.
                if time >= state.resumeAt, time - state.retryAfterSaidAt >= Self.retryAfterNoticeInterval {
                    state.retryAfterSaidAt = time
                    said.append(.retryAfter(seconds: until - time))
                }
                state.resumeAt = max(state.resumeAt, until)
            }
            Self.startClock(&state, at: time)
            let measured = Self.recordSend(&state, at: time)
            if !state.enabled {
                state.answers += 1
                state.throttles += throttled ? 1 : 0
                guard throttled else { return said }
                // The answers before the first throttle are no reference: a server's burst allowance may have let
                // them through. The rounds from here on are.
                (state.answers, state.throttles, state.roundStart) = (0, 0, time)
                state.enabled = true
                state.fillRate = max(measured, Self.minimumRate)
                Self.cut(&state, measured: state.fillRate, at: time)
                state.saidRate = state.fillRate
                state.saidAt = time
                return said + [.started(rate: state.fillRate)]
            }
            state.answers += 1
            if throttled {
                state.throttles += 1
            } else {
                let newRate = Self.scale * Self.cube(time - state.lastFail - state.k) + state.wMax
                Self.setRate(&state, min(newRate, 2 * measured), at: time)
            }
            if state.answers >= Self.roundLength { said += Self.endRound(&state, measured: measured, at: time) }
            let pace = measured > 0 ? min(state.fillRate, measured) : state.fillRate
            if let saidRate = state.saidRate, pace > saidRate { state.saidRate = pace }  // said when it falls from there
            return said
        }
        if let notice { said.forEach(notice) }
    }

    // MARK: Rounds

    /// Judges the round just ended: cuts when its throttles are above the tolerated share; restores the rate when
    /// the cut before it did not make throttles rarer.
    private static func endRound(_ state: inout State, measured: Double, at time: Double) -> [PacingNotice] {
        let fraction = Double(state.throttles) / Double(state.answers)
        let sendRate = Double(state.answers) / max(time - state.roundStart, 1e-3)
        let throttles = state.throttles
        (state.answers, state.throttles, state.roundStart) = (0, 0, time)
        // Either way: a round sent clearly slower than the one that caused the cut, or clearly faster (a pace
        // climbing back from a start too low), with about the same share of throttles.
        if let cut = state.lastCut, cut.fraction <= largestIndependentShare, throttles >= 2,
           sendRate <= slowerRound * cut.sendRate || cut.sendRate <= slowerRound * sendRate,
           fraction >= unchangedShare * cut.fraction, fraction <= cut.fraction / unchangedShare {
            state.lastCut = nil
            state.independentFraction = max(state.independentFraction ?? 0, fraction)
            // CUBIC grows on from the pace before the cut (or this round's, when it was faster).
            state.wMax = max(cut.rateBefore, cut.sendRate, sendRate, minimumRate)
            state.k = 0
            state.lastFail = time
            state.fillRate = state.wMax
            state.capacity = max(state.wMax, 1)
            state.saidRate = state.fillRate
            state.saidAt = time
            return [.independentOfRate(fraction: fraction, rate: state.fillRate)]
        }
        let tolerated = state.independentFraction.map { $0 * toleranceFactor + toleranceMargin } ?? 0
        guard throttles > 0, fraction > tolerated else {
            state.lastCut = nil
            return []
        }
        let before = state.fillRate
        cut(&state, measured: measured, at: time)
        let said = slowdown(&state, at: time).map { [$0] } ?? []
        // A cut whose next round is not sent clearly slower is judged against the round that was: a pace climbing
        // back from a start too low is then compared with that slow round, not with each round a little faster.
        if let cut = state.lastCut, sendRate > slowerRound * cut.sendRate, fraction <= largestIndependentShare {
            state.lastCut = (cut.fraction, cut.sendRate, max(before, cut.rateBefore))
        } else {
            state.lastCut = (fraction, sendRate, before)
        }
        return said
    }

    /// botocore's step on a throttle: the rate to use becomes `W_max`, and the rate falls to β of it.
    private static func cut(_ state: inout State, measured: Double, at time: Double) {
        let rateToUse = min(measured, state.fillRate)
        state.wMax = rateToUse
        state.k = zeroPoint(wMax: rateToUse)
        state.lastFail = time
        setRate(&state, min(rateToUse * beta, 2 * measured), at: time)
    }

    /// A notice when a cut has taken the bucket's rate to half the pace last said or below, at most every
    /// ``noticeInterval``. The pace said follows the pace up silently (the bucket's rate or the measured send rate,
    /// whichever is lower: a bucket's rate above what the workers send paces nothing), so a line means a real slowdown.
    private static func slowdown(_ state: inout State, at time: Double) -> PacingNotice? {
        guard let said = state.saidRate, time - state.saidAt >= noticeInterval, state.fillRate <= said / 2 else { return nil }
        state.saidRate = state.fillRate
        state.saidAt = time
        return .changed(rate: state.fillRate)
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

    /// Starts the send-rate clock at the first attempt (or answer) it sees.
    private static func startClock(_ state: inout State, at time: Double) {
        guard state.firstAttempt == nil else { return }
        state.firstAttempt = time
        state.lastBucket = (time * bucketsPerSecond).rounded(.down) / bucketsPerSecond
    }

    /// RateClocker.record: counts one send and returns the smoothed send rate. Before the first half-second bucket
    /// has ended (botocore then says 0, which would make a first throttle's cut the floor), it is the sends so far
    /// over the time since the first attempt, at least a tenth of a second.
    private static func recordSend(_ state: inout State, at time: Double) -> Double {
        let start = state.firstAttempt ?? time
        let bucket = (time * bucketsPerSecond).rounded(.down) / bucketsPerSecond
        state.sentInBucket += 1
        if bucket > state.lastBucket {
            let current = Double(state.sentInBucket) / (bucket - state.lastBucket)
            state.measuredRate = current * smoothing + state.measuredRate * (1 - smoothing)
            state.sentInBucket = 0
            state.lastBucket = bucket
            state.sentBeforeFirstBucket = -1
        } else if state.sentBeforeFirstBucket >= 0 {
            state.sentBeforeFirstBucket += 1
            return Double(state.sentBeforeFirstBucket) / max(time - start, 0.1)
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
    /// Records an answer; `throttled` when the server asked to slow down, `retryAfter` the seconds its
    /// `Retry-After` asked for, if any.
    func afterAttempt(throttled: Bool, retryAfter: Double?)
}

extension AttemptPacer {
    /// Records an answer that carried no `Retry-After`.
    public func afterAttempt(throttled: Bool) { afterAttempt(throttled: throttled, retryAfter: nil) }
}
