import Dispatch
import Synchronization

/// Sends GraphQL requests to an endpoint, retrying by its ``RetryPolicy``, and decodes the answers. Each attempt is
/// signed afresh (``Endpoint/httpRequest(body:at:)``); the response is classified by ``ResponseClassifier``.
///
/// ```swift
/// let client = GraphQLClient(endpoint: endpoint, cancellation: flag, trace: verbose ? { log($0.lines) } : nil)
/// let response = try client.execute(request)                    // queries retry, mutations don't
/// switch try response.outcome(decodePath: request.decodePath, nullIsNotFound: true) { … }
/// ```
public struct GraphQLClient: Sendable {
    /// Where requests go.
    public var endpoint: Endpoint
    /// How they get there.
    public var transport: any HTTPTransport
    /// How failed requests are retried.
    public var retry: RetryPolicy
    /// Set by the signal handler to stop at once.
    public var cancellation: CancellationFlag?
    /// Sleeps and random numbers for the retry loop.
    public var clock: RetryClock
    /// Receives `--verbose` events, or nil.
    public var trace: TraceSink?
    /// Asked once when the server answers HTTP 401: a fresh `Authorization` value (a refreshed user-pool token)
    /// to send the request again with, or nil to keep the 401. Later requests through this client and its copies
    /// (a listing's next pages) send the fresh value too.
    public var reauthorize: (@Sendable () -> String?)?
    /// The `Authorization` value `reauthorize` gave last, shared by the client's copies.
    private let renewed = RenewedAuthorization()
    /// Paces attempts (a bulk job's shared ``AdaptiveRateLimiter``), or nil.
    public var pacer: (any AttemptPacer)?

    /// - Parameters:
    ///   - transport: defaults to the process-wide ``CurlTransport/shared``.
    ///   - clock: defaults to real time, with sleeps that end on cancellation.
    public init(
        endpoint: Endpoint, transport: any HTTPTransport = CurlTransport.shared, retry: RetryPolicy = RetryPolicy(),
        cancellation: CancellationFlag? = nil, clock: RetryClock? = nil, trace: TraceSink? = nil
    ) {
        self.endpoint = endpoint
        self.transport = transport
        self.retry = retry
        self.cancellation = cancellation
        self.clock = clock ?? .live(cancellation: cancellation)
        self.trace = trace
    }

    /// Sends `request` and decodes the response, which may still carry GraphQL errors.
    ///
    /// - Parameter mayRetry: whether failures may be retried; by default queries are and mutations are not.
    ///   The front end computes it with ``RetryPolicy/mayRetry(_:retryMutations:mutationIsIdempotent:)``.
    /// - Throws: ``ExecutionError`` for transport failures, HTTP error statuses and non-GraphQL bodies,
    ///   with any known secret scrubbed from the messages.
    public func execute(_ request: GraphQLRequest, mayRetry: Bool? = nil) throws(ExecutionError) -> GraphQLResponse {
        let retryable = mayRetry ?? RetryPolicy.mayRetry(request.operationType, retryMutations: false, mutationIsIdempotent: false)
        trace?(.operation(document: request.query, variables: request.variables, operationName: request.operationName))
        var writer = JSONWriter(style: .compact)
        writer.write(request.body)
        let (response, attempts) = try send(body: writer.bytes, mayRetry: retryable, mayResend: request.operationType == .query)
        do {
            var decoded = try ResponseClassifier.classify(response)
            decoded.attempts = attempts
            pacer?.afterAttempt(throttled: decoded.errors.contains(where: \.isThrottling))
            return decoded
        } catch {
            pacer?.afterAttempt(throttled: response.status == 429)
            throw scrubbed(error, attempts: attempts)
        }
    }

    /// POSTs `body` to the endpoint until it gets a response that is not retried (any status) or gives up.
    /// Each attempt is signed afresh at the clock's time when the endpoint signs requests (IAM auth).
    /// Returns the response and how many attempts it took. `mayResend` (see ``HTTPRequest/mayResend``) is false
    /// for mutations, so that every sending is an attempt counted here.
    public func send(body: [UInt8], mayRetry: Bool, mayResend: Bool) throws(ExecutionError) -> (HTTPResponse, attempts: Int) {
        let policy = retry
        let maxRetries = mayRetry ? policy.maxRetries : 0
        var attempt = 0
        var endpoint = self.endpoint
        if let authorization = renewed.value { endpoint.headers.set("Authorization", authorization) }
        var reauthorize = self.reauthorize
        while true {
            attempt += 1
            if cancellation?.isCancelled == true { throw .cancelled }
            var httpRequest = endpoint.httpRequest(body: body, at: clock.now())
            httpRequest.mayResend = mayResend
            trace?(.request(method: httpRequest.method, url: httpRequest.url.absoluteString,
                            headers: traced(httpRequest.headers), bodyBytes: body.count, attempt: attempt))
            pacer?.beforeAttempt(cancellation: cancellation)
            if cancellation?.isCancelled == true { throw .cancelled }
            let started = DispatchTime.now().uptimeNanoseconds
            let response: HTTPResponse
            do {
                response = try transport.send(httpRequest, cancellation: cancellation)
            } catch {
                trace?(.failure(scrubbed(error), seconds: elapsed(since: started)))
                if error == .cancelled { throw .cancelled }
                pacer?.afterAttempt(throttled: false)
                guard attempt <= maxRetries, let reason = RetryReason.forTransportError(error) else {
                    throw .transport(scrubbed(error), attempts: attempt)
                }
                try pause(before: attempt, of: maxRetries, reason: reason, retryAfter: nil)
                continue
            }
            trace?(.response(status: response.status, headers: traced(response.headers),
                             bytes: response.body.count, seconds: elapsed(since: started)))
            if response.status == 401, let refresh = reauthorize {
                // Once only: a token that expired in flight is refreshed; a second 401 is the answer.
                reauthorize = nil
                if let authorization = refresh() {
                    endpoint.headers.set("Authorization", authorization)
                    renewed.value = authorization
                    attempt -= 1
                    continue
                }
            }
            guard attempt <= maxRetries, let reason = RetryReason.forStatus(response.status) else {
                return (response, attempt)
            }
            let retryAfter = response.headers.value(for: "Retry-After").flatMap { RetryAfter.seconds(from: $0, now: clock.now()) }
            pacer?.afterAttempt(throttled: response.status == 429, retryAfter: retryAfter)
            try pause(before: attempt, of: maxRetries, reason: reason, retryAfter: retryAfter)
        }
    }

    /// Waits before retry `retry`, reporting it; throws if cancelled meanwhile.
    private func pause(before retry: Int, of maxRetries: Int, reason: RetryReason, retryAfter: Double?) throws(ExecutionError) {
        let delay = self.retry.delay(retry: retry, retryAfter: retryAfter, random: clock.random())
        trace?(.retry(retry: retry, maxRetries: maxRetries, reason: scrubbed(reason), delay: delay))
        clock.sleep(delay)
        if cancellation?.isCancelled == true { throw .cancelled }
    }

    private func elapsed(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }

    // MARK: Scrubbing secrets out of messages that may echo a header

    /// Headers for the trace: sensitive ones masked by name, and known secrets scrubbed from every value
    /// (a server may echo one back, e.g. in `Retry-After` or `WWW-Authenticate`).
    private func traced(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        let redactor = endpoint.redactor
        return HeaderRedaction.redact(headers).map { HTTPHeader(name: $0.name, value: redactor.scrub($0.value)) }
    }

    private func scrubbed(_ error: TransportError) -> TransportError {
        let redactor = endpoint.redactor
        switch error {
        case .network(let detail): return .network(redactor.scrub(detail))
        case .tls(let detail): return .tls(redactor.scrub(detail))
        case .invalidURL(let url, let detail): return .invalidURL(redactor.scrub(url), detail: redactor.scrub(detail))
        case .badResponse(let detail): return .badResponse(redactor.scrub(detail))
        case .timeout, .cancelled, .unavailable, .responseTooLarge: return error
        }
    }

    private func scrubbed(_ reason: RetryReason) -> RetryReason {
        if case .network(let detail) = reason { return .network(endpoint.redactor.scrub(detail)) }
        return reason
    }

    private func scrubbed(_ error: ExecutionError, attempts: Int) -> ExecutionError {
        let redactor = endpoint.redactor
        switch error {
        case .httpStatus(var status):
            status.attempts = attempts
            status.authorization = endpoint.requestAuthorization
            status.message = status.message.map(redactor.scrub)
            status.excerpt = status.excerpt.map(redactor.scrub)
            status.location = status.location.map(redactor.scrub)
            return .httpStatus(status)
        case .invalidResponse(.notJSON(let code, let parseError, let excerpt)):
            return .invalidResponse(.notJSON(status: code, parseError, excerpt: redactor.scrub(excerpt)))
        case .invalidResponse(.notGraphQL(let detail)):
            return .invalidResponse(.notGraphQL(redactor.scrub(detail)))
        case .transport(let transportError, let count):
            return .transport(scrubbed(transportError), attempts: count)
        case .invalidResponse, .cancelled:
            return error
        }
    }
}

/// The last `Authorization` value a client's ``GraphQLClient/reauthorize`` gave, kept for its later requests.
private final class RenewedAuthorization: Sendable {
    private let state = Mutex<String?>(nil)

    var value: String? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
