/// One attempt at a request, as the request steps see it.
public struct RequestAttempt: Sendable {
    /// What is sent: unsigned until ``SigningStep`` has signed it.
    public var request: HTTPRequest
    /// Counts from 1; set by ``RetryStep``.
    public var number: Int

    /// Makes a value from its parts.
    public init(request: HTTPRequest, number: Int = 1) {
        self.request = request
        self.number = number
    }
}

/// What came back through the steps: the response, the attempts it took, and its classification, decoded once by
/// the first step that asks for it (see ``classified()``) and carried up to the others.
public struct RequestExchange: Sendable {
    /// The HTTP response (any status).
    public var response: HTTPResponse
    /// Attempts the answer took, not counting a re-sending after HTTP 401 (set by ``RetryStep``).
    public var attempts: Int
    /// Retries made for GraphQL throttling errors in a successful response (``ThrottledAnswerRetryStep``).
    public var throttleRetries = 0
    private var decoded: Result<GraphQLResponse, ExecutionError>?

    /// Makes a value from its parts.
    public init(response: HTTPResponse, attempts: Int = 1) {
        self.response = response
        self.attempts = attempts
    }

    /// The response as GraphQL (``ResponseClassifier``), decoded on the first call only.
    public mutating func classified() -> Result<GraphQLResponse, ExecutionError> {
        if let decoded { return decoded }
        let result = Result { () throws(ExecutionError) in try ResponseClassifier.classify(response) }
        decoded = result
        return result
    }
}

/// The rest of the chain, as a step calls it: it may be called again (a retry, a re-authorized sending) or not at all.
public typealias RequestNext = (RequestAttempt) throws(ExecutionError) -> RequestExchange

/// One concern of sending a request (signing, re-auth, retry, pacing, tracing, cancellation), in the manner of
/// apollo-ios's interceptors but synchronous: a step gets the attempt and the rest of the chain, and returns what
/// came back. A transport failure travels up as ``ExecutionError/transport(_:attempts:)``.
public protocol RequestStep: Sendable {
    /// Handles `attempt`, calling `next` to send it on.
    func handle(_ attempt: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange
}

/// Steps in order, outermost first, over a transport. ``GraphQLClient/chain(mayRetry:outer:)`` composes the
/// standard one; docs/development.md lists the steps and where a new one goes.
public struct RequestChain: Sendable {
    /// Outermost first: the first step sees the attempt first and the answer last.
    public var steps: [any RequestStep]
    /// Sends each attempt the last step passes on.
    public var transport: any HTTPTransport
    /// Handed to the transport, which cancels its in-flight request when the flag is set.
    public var cancellation: CancellationFlag?

    /// Makes a value from its parts.
    public init(steps: [any RequestStep], transport: any HTTPTransport, cancellation: CancellationFlag?) {
        self.steps = steps
        self.transport = transport
        self.cancellation = cancellation
    }

    /// Runs `attempt` through every step to the transport and back.
    public func send(_ attempt: RequestAttempt) throws(ExecutionError) -> RequestExchange {
        try proceed(from: 0, attempt)
    }

    private func proceed(from index: Int, _ attempt: RequestAttempt) throws(ExecutionError) -> RequestExchange {
        guard index < steps.count else {
            do {
                return RequestExchange(response: try transport.send(attempt.request, cancellation: cancellation), attempts: attempt.number)
            } catch {
                throw .transport(error, attempts: attempt.number)
            }
        }
        return try steps[index].handle(attempt) { (next: RequestAttempt) throws(ExecutionError) -> RequestExchange in
            try proceed(from: index + 1, next)
        }
    }
}
