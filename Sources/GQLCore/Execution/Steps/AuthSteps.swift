import Synchronization

/// Signs each attempt afresh at the clock's time (SigV4 for IAM auth), so that a retry after a long wait is not
/// refused as stale. Passes the attempt on unchanged when the endpoint does not sign.
public struct SigningStep: RequestStep {
    public var signer: SigV4Signer?
    public var clock: RetryClock

    /// Makes a value from its parts.
    public init(signer: SigV4Signer?, clock: RetryClock) {
        self.signer = signer
        self.clock = clock
    }

    public func handle(_ attempt: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange {
        guard let signer else { return try next(attempt) }
        var signed = attempt
        signed.request = signer.sign(attempt.request, at: clock.now())
        return try next(signed)
    }
}

/// A client's answer to HTTP 401: the refresh it was given (``GraphQLClient/reauthorize``) and the `Authorization`
/// value it gave last, which the client's later requests (and its copies': a listing's next pages) send too.
final class Reauthorization: Sendable {
    let refresh: @Sendable () -> String?
    private let renewed = Mutex<String?>(nil)

    init(refresh: @escaping @Sendable () -> String?) { self.refresh = refresh }

    /// The value the last successful refresh gave, or nil.
    var current: String? {
        get { renewed.withLock { $0 } }
        set { renewed.withLock { $0 = newValue } }
    }
}

/// Sends the renewed `Authorization` value once there is one; when the server answers HTTP 401, asks for a fresh
/// value (a refreshed user-pool token) and sends the attempt again with it, once per request: a token that expired in
/// flight is refreshed, a second 401 is the answer. Made afresh for each request (it remembers that one refresh).
final class ReauthorizationStep: RequestStep {
    private let reauthorization: Reauthorization
    private let spent = Mutex(false)

    init(_ reauthorization: Reauthorization) { self.reauthorization = reauthorization }

    func handle(_ attempt: RequestAttempt, next: RequestNext) throws(ExecutionError) -> RequestExchange {
        var attempt = attempt
        if let authorization = reauthorization.current { attempt.request.headers.set("Authorization", authorization) }
        let exchange = try next(attempt)
        guard exchange.response.status == 401, !spent.withLock({ spent in defer { spent = true }; return spent }),
              let authorization = reauthorization.refresh() else { return exchange }
        reauthorization.current = authorization
        attempt.request.headers.set("Authorization", authorization)
        return try next(attempt)
    }
}
