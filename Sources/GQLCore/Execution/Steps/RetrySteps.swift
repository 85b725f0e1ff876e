/// Sends again after a transient failure (network error, timeout, HTTP 429 or 5xx), up to `maxRetries` times, waiting
/// by the policy's backoff or the server's `Retry-After`; numbers the attempts and reports each retry to the trace.
/// A wait ends early on cancellation, which then ends the request.
public struct RetryStep: RequestStep {
    public var policy: RetryPolicy
    /// 0 for a request that must not be repeated (a mutation, by default).
    public var maxRetries: Int
    public var clock: RetryClock
    public var cancellation: CancellationFlag?
    public var trace: TraceSink?
    /// Scrubs known secrets from a traced network error.
    public var redactor: Redactor

    /// Makes a value from its parts.
    public init(policy: RetryPolicy, maxRetries: Int, clock: RetryClock, cancellation: CancellationFlag?, trace: TraceSink?, redactor: Redactor) {
        self.policy = policy
        self.maxRetries = maxRetries
        self.clock = clock
        self.cancellation = cancellation
        self.trace = trace
        self.redactor = redactor
    }

    public func handle(_ first: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange {
        var attempt = first
        attempt.number = 0
        while true {
            attempt.number += 1
            var exchange: RequestExchange
            do {
                exchange = try next(attempt)
            } catch {
                guard case .transport(let failure, _) = error else { throw error }
                guard attempt.number <= maxRetries, let reason = RetryReason.forTransportError(failure) else {
                    throw .transport(failure, attempts: attempt.number)
                }
                try pause(before: attempt.number, reason: reason, retryAfter: nil)
                continue
            }
            guard attempt.number <= maxRetries, let reason = RetryReason.forStatus(exchange.response.status) else {
                exchange.attempts = attempt.number
                return exchange
            }
            let retryAfter = exchange.response.headers.value(for: "Retry-After").flatMap { RetryAfter.seconds(from: $0, now: clock.now()) }
            try pause(before: attempt.number, reason: reason, retryAfter: retryAfter)
        }
    }

    /// Waits before retry `retry`, reporting it; throws if cancelled meanwhile.
    private func pause(before retry: Int, reason: RetryReason, retryAfter: Double?) throws(ExecutionError) {
        let delay = policy.delay(retry: retry, retryAfter: retryAfter, random: clock.random())
        var traced = reason
        if case .network(let detail) = reason { traced = .network(redactor.scrub(detail)) }
        trace?(.retry(retry: retry, maxRetries: maxRetries, reason: traced, delay: delay))
        clock.sleep(delay)
        if cancellation?.isCancelled == true { throw .cancelled }
    }
}

/// A bulk item's retry of a throttled answer: a 429 the retry step gave up on, or a successful HTTP answer that
/// carries GraphQL throttling errors (AppSync and DynamoDB say "slow down" in the body). A throttled request was not
/// carried out, so the whole request, retries and all, is sent again after the policy's backoff until the record has
/// been throttled `attemptLimit` times; the pacing step has already slowed the job down on seeing each throttle.
/// A policy of no retries sends nothing again.
public struct ThrottledAnswerRetryStep: RequestStep {
    public var policy: RetryPolicy
    public var clock: RetryClock
    public var cancellation: CancellationFlag?
    /// How many throttled attempts fail a record.
    public var attemptLimit: Int
    /// Whether an answer is a throttling refusal to try again (its errors, and no data where the result goes).
    public var isThrottled: @Sendable (GraphQLResponse) -> Bool

    /// Makes a value from its parts.
    public init(
        policy: RetryPolicy, clock: RetryClock, cancellation: CancellationFlag?,
        attemptLimit: Int = Defaults.throttledAttemptsPerRecord, isThrottled: @escaping @Sendable (GraphQLResponse) -> Bool
    ) {
        self.policy = policy
        self.clock = clock
        self.cancellation = cancellation
        self.attemptLimit = attemptLimit
        self.isThrottled = isThrottled
    }

    public func handle(_ attempt: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange {
        var rounds = 0
        var throttled = 0
        while true {
            var exchange = try next(attempt)
            exchange.throttleRetries = rounds
            if exchange.response.status == 429 {
                // The retry step gave up on this round: every attempt it made may have been throttled.
                throttled += exchange.attempts
            } else if case .success(let response) = exchange.classified(), isThrottled(response) {
                throttled += 1
            } else {
                return exchange
            }
            guard policy.maxRetries > 0, throttled < attemptLimit else { return exchange }
            rounds += 1
            clock.sleep(policy.delay(retry: min(throttled, policy.maxRetries + 1), retryAfter: nil, random: clock.random()))
            if cancellation?.isCancelled == true { throw .cancelled }
        }
    }
}
