/// Sends one bulk item's mutation through the client's request steps, with the bulk retry of throttled answers on
/// top (``ThrottledAnswerRetryStep``), and decides how it ended (see ``BulkRunner``).
struct ItemWorker: Sendable {
    let operation: BulkOperation
    let retry: RetryPolicy
    let cancellation: CancellationFlag?

    func perform(_ bulk: BulkRequest, client: GraphQLClient) -> BulkItemOutcome {
        var writer = JSONWriter(style: .compact)
        writer.write(bulk.request.body)
        let decodePath = bulk.request.decodePath
        let nullIsNotFound = operation != .create
        let throttled = ThrottledAnswerRetryStep(policy: retry, clock: client.clock, cancellation: cancellation) { response in
            guard case .failed(let errors)? = try? response.outcome(decodePath: decodePath, nullIsNotFound: nullIsNotFound) else { return false }
            return errors.contains(where: \.isThrottling)
        }
        let response: GraphQLResponse
        let retried: Bool
        do throws(ExecutionError) {
            var exchange = try client.exchange(body: writer.bytes, mayRetry: true, mayResend: false, outer: [throttled])
            retried = exchange.attempts > 1 || exchange.throttleRetries > 0
            response = try client.decoded(&exchange)
        } catch {
            if error.kind == .cancelled { return .interrupted }
            return .failed(.execution(error))
        }
        let outcome: RequestOutcome
        do {
            outcome = try response.outcome(decodePath: decodePath, nullIsNotFound: nullIsNotFound)
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
            if errors.contains(where: \.isConditionFailure) { return conditionRefused(bulk, retried: retried, client: client) }
            return .failed(.errors(errors))
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
