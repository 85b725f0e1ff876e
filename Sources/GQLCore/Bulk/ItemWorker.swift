/// Sends one bulk item's mutation, with retries, and decides how it ended (see ``BulkRunner``).
struct ItemWorker: Sendable {
    let operation: BulkOperation
    let retry: RetryPolicy
    let cancellation: CancellationFlag?

    func perform(_ bulk: BulkRequest, client: GraphQLClient) -> BulkItemOutcome {
        var writer = JSONWriter(style: .compact)
        writer.write(bulk.request.body)
        let body = writer.bytes
        var retried = false
        var throttled = 0
        while true {
            let response: GraphQLResponse
            var sent = 1
            do throws(ExecutionError) {
                let (http, attempts) = try client.send(body: body, mayRetry: true, mayResend: false)
                sent = attempts
                retried = retried || attempts > 1
                do throws(ExecutionError) {
                    response = try ResponseClassifier.classify(http)
                    client.pacer?.afterAttempt(throttled: response.errors.contains(where: \.isThrottling))
                } catch {
                    let retryAfter = http.headers.value(for: "Retry-After").flatMap { RetryAfter.seconds(from: $0, now: client.clock.now()) }
                    client.pacer?.afterAttempt(throttled: http.status == 429, retryAfter: retryAfter)
                    throw error
                }
            } catch {
                if error.kind == .cancelled { return .interrupted }
                if case .httpStatus(let status) = error, status.status == 429 {
                    // Every attempt the client made may have been throttled: none of them was carried out.
                    throttled += max(sent, status.attempts)
                    retried = true
                    if mayRetryThrottled(throttled), pause(after: throttled, client: client) { continue }
                    if cancellation?.isCancelled == true { return .interrupted }
                }
                return .failed(.execution(error))
            }
            let outcome: RequestOutcome
            do {
                outcome = try response.outcome(decodePath: bulk.request.decodePath, nullIsNotFound: operation != .create)
            } catch {
                return .failed(.execution(.invalidResponse(error)))
            }
            switch outcome {
            case .success(let record), .partial(let record, _):
                return .done(record)
            case .notFound:
                return .failed(.notFound(bulk.key))
            case .pathNotFound(let error):
                return .failed(.execution(.invalidResponse(.missingResult(error))))
            case .failed(let errors):
                if errors.contains(where: \.isThrottling), mayRetryThrottled(throttled + 1) {
                    throttled += 1
                    retried = true
                    if pause(after: throttled, client: client) { continue }
                    return .interrupted
                }
                let conditionFailed = errors.contains { $0.errorType?.hasSuffix("ConditionalCheckFailedException") == true }
                if conditionFailed { return conditionRefused(bulk, retried: retried, client: client) }
                return .failed(.errors(errors))
            }
        }
    }

    /// Whether a record throttled `count` times is sent again: a throttled request was not carried out, so throttling
    /// alone fails a record only after ``Defaults/throttledAttemptsPerRecord`` throttled attempts (the shared pacer slows
    /// the job meanwhile); `--retries 0` turns it off with every other retry.
    private func mayRetryThrottled(_ count: Int) -> Bool {
        retry.maxRetries > 0 && count < Defaults.throttledAttemptsPerRecord
    }

    /// Backs off before sending a throttled record again; false when the job was cancelled meanwhile.
    private func pause(after throttled: Int, client: GraphQLClient) -> Bool {
        let delay = retry.delay(retry: min(throttled, retry.maxRetries + 1), retryAfter: nil, random: client.clock.random())
        client.clock.sleep(delay)
        return cancellation?.isCancelled != true
    }

    /// The transformer's only conditions are "the key is new" (create) and "the record exists" (update, delete).
    /// After gqlc's own retry, the first attempt may have made the refusal: ``RefusedWrite`` reads the record to tell.
    /// Without a retry, a create whose record already holds every value sent was made by an earlier run (a re-run of
    /// `--rejects`): done too.
    private func conditionRefused(
        _ bulk: BulkRequest, retried: Bool, client: GraphQLClient
    ) -> BulkItemOutcome {
        guard retried || operation == .create else { return .failed(.notFound(bulk.key)) }
        let refused = RefusedWrite(operation: operation, sent: bulk.request.variables["input"], key: bulk.key, lookup: bulk.lookup)
        switch (operation, refused.check(client: client)) {
        case (_, .applied(let record)):
            return .done(record)
        case (.create, _):
            return .failed(.alreadyExists(bulk.key, afterRetry: retried))
        case (.update, .missing):
            return .failed(.notFound(bulk.key))
        case (.update, _), (.delete, _):
            return .failed(.refusedAfterRetry(bulk.key))
        }
    }
}
