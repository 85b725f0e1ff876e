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
    private func conditionRefused(
        _ bulk: BulkRequest, retried: Bool, client: GraphQLClient
    ) -> BulkItemOutcome {
        switch operation {
        case .create:
            // After our own retry, the first attempt made it and its answer was lost. Without a retry, a record
            // that already holds every value sent was made by an earlier run (a re-run of --rejects): done too.
            let stored = bulk.lookup.flatMap { lookup -> JSONValue? in
                guard let response = try? client.execute(lookup),
                    case .success(let record)? = try? response.outcome(decodePath: lookup.decodePath, nullIsNotFound: true)
                else { return nil }
                return record
            }
            if let stored, retried || Self.holds(stored, bulk.request.variables["input"]) { return .done(stored) }
            return retried ? .done(.object(bulk.key)) : .failed(.alreadyExists(bulk.key))
        case .delete where retried:
            return .done(.object(bulk.key))
        case .update, .delete:
            return .failed(.notFound(bulk.key))
        }
    }

    /// Whether `record` has every value of `input`.
    /// Objects match member by member (the stored side may have more, such as `__typename`); lists element by element.
    static func holds(_ record: JSONValue, _ input: JSONValue?) -> Bool {
        guard let input else { return false }
        switch (record, input) {
        case (.object(let stored), .object(let sent)):
            return sent.allSatisfy { member in stored[member.key].map { holds($0, member.value) } ?? member.value.isNull }
        case (.array(let stored), .array(let sent)):
            return stored.count == sent.count && zip(stored, sent).allSatisfy { holds($0, $1) }
        default:
            return record == input
        }
    }
}
