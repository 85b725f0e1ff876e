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
        var throttleRetries = 0
        while true {
            let response: GraphQLResponse
            do throws(ExecutionError) {
                let (http, attempts) = try client.send(body: body, mayRetry: true, mayResend: false)
                retried = retried || attempts > 1
                do throws(ExecutionError) {
                    response = try ResponseClassifier.classify(http)
                    client.pacer?.afterAttempt(throttled: response.errors.contains(where: \.isThrottling))
                } catch {
                    client.pacer?.afterAttempt(throttled: http.status == 429)
                    throw error
                }
            } catch {
                if error.kind == .cancelled { return .interrupted }
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
                if errors.contains(where: \.isThrottling), throttleRetries < retry.maxRetries {
                    throttleRetries += 1
                    retried = true
                    let delay = retry.delay(retry: throttleRetries, retryAfter: nil, random: client.clock.random())
                    client.clock.sleep(delay)
                    if cancellation?.isCancelled == true { return .interrupted }
                    continue
                }
                let conditionFailed = errors.contains { $0.errorType?.hasSuffix("ConditionalCheckFailedException") == true }
                if conditionFailed { return conditionRefused(bulk, retried: retried, client: client) }
                return .failed(.errors(errors))
            }
        }
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
