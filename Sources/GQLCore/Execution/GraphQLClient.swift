/// Sends GraphQL requests to an endpoint and decodes the answers. Each attempt goes through the request steps
/// (``chain(mayRetry:outer:)``): retry by its ``RetryPolicy``, re-auth on 401, pacing, cancellation, signing afresh,
/// tracing; the response is classified by ``ResponseClassifier``.
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
    /// Sleeps, random numbers and times for the steps.
    public var clock: RetryClock
    /// Receives `--verbose` events, or nil.
    public var trace: TraceSink?
    /// Receives progress (list pages received), or nil; apart from the trace, so that counting needs no `--verbose`.
    public var progress: ProgressSink?
    /// Asked once when the server answers HTTP 401: a fresh `Authorization` value (a refreshed user-pool token)
    /// to send the request again with, or nil to keep the 401. Later requests through this client and its copies
    /// (a listing's next pages) send the fresh value too.
    public var reauthorize: (@Sendable () -> String?)? {
        didSet { reauthorization = reauthorize.map(Reauthorization.init(refresh:)) }
    }
    /// The re-auth step's state: the refresh and the value it gave last, shared by the copies made after it was set.
    private var reauthorization: Reauthorization?
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
        var exchange = try exchange(body: writer.bytes, mayRetry: retryable, mayResend: request.operationType == .query)
        return try decoded(&exchange)
    }

    /// The GraphQL response in `exchange`, with its attempts; a failure carries them too, the auth used (for hints) and
    /// known secrets scrubbed.
    func decoded(_ exchange: inout RequestExchange) throws(ExecutionError) -> GraphQLResponse {
        switch exchange.classified() {
        case .success(var decoded):
            decoded.attempts = exchange.attempts
            return decoded
        case .failure(let error):
            throw scrubbed(error, attempts: exchange.attempts)
        }
    }

    /// POSTs `body` to the endpoint until it gets a response that is not retried (any status) or gives up.
    /// Each attempt is signed afresh at the clock's time when the endpoint signs requests (IAM auth).
    /// Returns the response and how many attempts it took. `mayResend` (see ``HTTPRequest/mayResend``) is false
    /// for mutations, so that every sending is an attempt counted here.
    public func send(body: [UInt8], mayRetry: Bool, mayResend: Bool) throws(ExecutionError) -> (HTTPResponse, attempts: Int) {
        let exchange = try exchange(body: body, mayRetry: mayRetry, mayResend: mayResend)
        return (exchange.response, exchange.attempts)
    }

    /// Runs `body` through the steps (with `outer` ones before the standard ones) and returns what came back, its
    /// classification cached when a step needed it. Transport failures are thrown with known secrets scrubbed.
    func exchange(body: [UInt8], mayRetry: Bool, mayResend: Bool, outer: [any RequestStep] = []) throws(ExecutionError) -> RequestExchange {
        var request = endpoint.unsignedRequest(body: body)
        request.mayResend = mayResend
        do {
            return try chain(mayRetry: mayRetry, outer: outer).send(RequestAttempt(request: request))
        } catch {
            if case .transport(let failure, let attempts) = error { throw .transport(endpoint.redactor.scrub(failure), attempts: attempts) }
            throw error
        }
    }

    /// The request steps, outermost first: the one place they are composed. A step sees the attempt on its way out in
    /// this order and the answer on its way back in the reverse order (see docs/development.md).
    public func chain(mayRetry: Bool, outer: [any RequestStep] = []) -> RequestChain {
        let redactor = endpoint.redactor
        var steps = outer
        steps.append(RetryStep(policy: retry, maxRetries: mayRetry ? retry.maxRetries : 0, clock: clock,
                               cancellation: cancellation, trace: trace, redactor: redactor))
        if let reauthorization { steps.append(ReauthorizationStep(reauthorization)) }
        if let pacer { steps.append(PacingStep(pacer: pacer, cancellation: cancellation, clock: clock)) }
        steps.append(CancellationStep(cancellation: cancellation))
        steps.append(SigningStep(signer: endpoint.signer, clock: clock))
        if let trace { steps.append(TracingStep(trace: trace, redactor: redactor, clock: clock)) }
        return RequestChain(steps: steps, transport: transport, cancellation: cancellation)
    }

    // MARK: Scrubbing secrets out of messages that may echo a header

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
            return .transport(redactor.scrub(transportError), attempts: count)
        case .invalidResponse, .cancelled:
            return error
        }
    }
}
