/// Ends the request when the cancellation flag is set: before an attempt goes out, and when the transport gave up on
/// an in-flight one (its ``TransportError/cancelled`` becomes ``ExecutionError/cancelled``).
public struct CancellationStep: RequestStep {
    public var cancellation: CancellationFlag?

    /// Makes a value from its parts.
    public init(cancellation: CancellationFlag?) { self.cancellation = cancellation }

    public func handle(_ attempt: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange {
        if cancellation?.isCancelled == true { throw .cancelled }
        do {
            return try next(attempt)
        } catch {
            if case .transport(.cancelled, _) = error { throw .cancelled }
            throw error
        }
    }
}

/// Paces attempts with a shared ``AttemptPacer`` (a bulk job's ``AdaptiveRateLimiter``): waits for its go before
/// each attempt, and tells it how each ended, throttled when the server answered 429 or with GraphQL throttling
/// errors. An attempt ended by cancellation is not reported.
public struct PacingStep: RequestStep {
    public var pacer: any AttemptPacer
    public var cancellation: CancellationFlag?
    /// Reads an HTTP-date `Retry-After` against its wall time.
    public var clock: RetryClock

    /// Makes a value from its parts.
    public init(pacer: any AttemptPacer, cancellation: CancellationFlag?, clock: RetryClock) {
        self.pacer = pacer
        self.cancellation = cancellation
        self.clock = clock
    }

    public func handle(_ attempt: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange {
        pacer.beforeAttempt(cancellation: cancellation)
        var exchange: RequestExchange
        do {
            exchange = try next(attempt)
        } catch {
            if case .transport(let failure, _) = error, failure != .cancelled { pacer.afterAttempt(throttled: false) }
            throw error
        }
        var throttled = exchange.response.status == 429
        if !throttled, case .success(let response) = exchange.classified() { throttled = response.errors.contains(where: \.isThrottling) }
        let retryAfter = throttled
            ? exchange.response.headers.value(for: "Retry-After").flatMap { RetryAfter.seconds(from: $0, now: clock.now()) } : nil
        pacer.afterAttempt(throttled: throttled, retryAfter: retryAfter)
        return exchange
    }
}

/// Reports each attempt to the trace (`--verbose`) as it goes out and as it comes back, with the time it took on the
/// clock's monotonic time; header values are masked by name and scrubbed of known secrets (a server may echo one).
public struct TracingStep: RequestStep {
    public var trace: TraceSink
    public var redactor: Redactor
    public var clock: RetryClock

    /// Makes a value from its parts.
    public init(trace: @escaping TraceSink, redactor: Redactor, clock: RetryClock) {
        self.trace = trace
        self.redactor = redactor
        self.clock = clock
    }

    public func handle(_ attempt: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange {
        let request = attempt.request
        trace(.request(method: request.method, url: request.url.absoluteString, headers: traced(request.headers),
                       bodyBytes: request.body.count, attempt: attempt.number))
        let started = clock.monotonic()
        do {
            let exchange = try next(attempt)
            let response = exchange.response
            trace(.response(status: response.status, headers: traced(response.headers), bytes: response.body.count,
                            seconds: clock.monotonic() - started))
            return exchange
        } catch {
            if case .transport(let failure, _) = error { trace(.failure(redactor.scrub(failure), seconds: clock.monotonic() - started)) }
            throw error
        }
    }

    private func traced(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        HeaderRedaction.redact(headers).map { HTTPHeader(name: $0.name, value: redactor.scrub($0.value)) }
    }
}

extension Redactor {
    /// `error` with known secrets scrubbed from its details.
    func scrub(_ error: TransportError) -> TransportError {
        switch error {
        case .network(let detail): return .network(scrub(detail))
        case .tls(let detail): return .tls(scrub(detail))
        case .invalidURL(let url, let detail): return .invalidURL(scrub(url), detail: scrub(detail))
        case .badResponse(let detail): return .badResponse(scrub(detail))
        case .timeout, .cancelled, .unavailable, .responseTooLarge: return error
        }
    }
}
