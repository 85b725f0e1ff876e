import Foundation
import Testing
@testable import GQLCore

/// A pacer that records what the pacing step tells it.
final class RecordingPacer: AttemptPacer, Sendable {
    private let log = EventRecorder<String>()

    var calls: [String] { log.events }

    func beforeAttempt(cancellation: CancellationFlag?) { log.sink("before") }
    func afterAttempt(throttled: Bool, retryAfter: Double?) {
        log.sink(throttled ? retryAfter.map { "throttled, retry after \($0)" } ?? "throttled" : "ok")
    }
}

/// Counts the refreshes a client's re-auth asks for, answering with `token`.
final class RecordingRefresh: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let token: String?

    init(token: String?) { self.token = token }

    var calls: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    var refresh: @Sendable () -> String? {
        {
            self.lock.lock()
            self.count += 1
            self.lock.unlock()
            return self.token
        }
    }
}

private let throttledBody = #"{"data":{"deletePost":null},"errors":[{"errorType":"DynamoDB:ProvisionedThroughputExceededException","message":"slow down"}]}"#
private let deletedBody = #"{"data":{"deletePost":{"id":"p1"}}}"#

private func attempts(_ trace: TraceRecorder) -> [Int] {
    trace.events.compactMap { if case .request(_, _, _, _, let attempt) = $0 { return attempt } else { return nil } }
}

private func unsigned() throws -> RequestAttempt {
    RequestAttempt(request: try Fixtures.endpoint().unsignedRequest(body: Array(#"{"query":"{ x }"}"#.utf8)))
}

/// Each request step on its own over a fake transport, and the chain the client composes from them.
@Suite struct RequestStepTests {
    // MARK: The composed chain

    @Test func theClientComposesTheStepsInOneOrder() throws {
        var client = try Fixtures.client(FakeTransport([Fixtures.ok()]), trace: TraceRecorder())
        client.reauthorize = { nil }
        client.pacer = RecordingPacer()
        let names = client.chain(mayRetry: true).steps.map { String(describing: type(of: $0)) }
        #expect(names == ["RetryStep", "ReauthorizationStep", "PacingStep", "CancellationStep", "SigningStep", "TracingStep"])
        let plain = try Fixtures.client(FakeTransport([Fixtures.ok()]))
        #expect(plain.chain(mayRetry: false).steps.map { String(describing: type(of: $0)) } == ["RetryStep", "CancellationStep", "SigningStep"])
    }

    // MARK: Re-auth on 401

    @Test func unauthorizedIsAnsweredOnceWithAFreshTokenThatLaterRequestsKeep() throws {
        let transport = FakeTransport([Fixtures.status(401), Fixtures.ok(), Fixtures.ok()])
        let refresh = RecordingRefresh(token: "fresh-token-0123456789")
        var client = try Fixtures.client(transport)
        client.reauthorize = refresh.refresh
        let response = try client.execute(Fixtures.query)
        #expect(response.attempts == 1)
        #expect(transport.requests.map { $0.headers.value(for: "Authorization") } == [nil, "fresh-token-0123456789"])
        let copy = client  // a listing's next page goes through a copy
        _ = try copy.execute(Fixtures.query)
        #expect(transport.requests.last?.headers.value(for: "Authorization") == "fresh-token-0123456789")
        #expect(refresh.calls == 1)
    }

    @Test func aSecondUnauthorizedIsTheAnswer() throws {
        let transport = FakeTransport([Fixtures.status(401, #"{"errors":[{"errorType":"UnauthorizedException","message":"expired"}]}"#)])
        let refresh = RecordingRefresh(token: "fresh-token-0123456789")
        var client = try Fixtures.client(transport)
        client.reauthorize = refresh.refresh
        let error = executionError { () throws(ExecutionError) in try client.execute(Fixtures.query) }
        guard case .httpStatus(let status)? = error else { Issue.record("not an HTTP status: \(String(describing: error))"); return }
        #expect(status.status == 401 && status.attempts == 1)
        #expect(transport.requests.count == 2)
        #expect(refresh.calls == 1)
    }

    @Test func aRefreshThatGivesNothingKeepsTheUnauthorized() throws {
        let transport = FakeTransport([Fixtures.status(401), Fixtures.ok()])
        let refresh = RecordingRefresh(token: nil)
        var client = try Fixtures.client(transport)
        client.reauthorize = refresh.refresh
        #expect(throws: ExecutionError.self) { try client.execute(Fixtures.query) }
        #expect(transport.requests.count == 1)
        #expect(refresh.calls == 1)
    }

    @Test func theReauthorizedSendingKeepsItsAttemptNumberAndTheRetryBudget() throws {
        let transport = FakeTransport([Fixtures.status(503), Fixtures.status(401), Fixtures.ok()])
        let trace = TraceRecorder()
        let clock = RecordingClock(random: 0.5)
        var client = try Fixtures.client(transport, retries: 1, clock: clock, trace: trace)
        client.reauthorize = RecordingRefresh(token: "fresh-token-0123456789").refresh
        let response = try client.execute(Fixtures.query)
        #expect(attempts(trace) == [1, 2, 2])
        #expect(response.attempts == 2)
        #expect(clock.sleeps == [0.1])
    }

    // MARK: Retry with backoff

    @Test func theRetryStepComputesItsWaitsWithoutSleeping() throws {
        let transport = FakeTransport([.failure(.network("reset")), Fixtures.status(503), Fixtures.status(429), Fixtures.ok()])
        let clock = RecordingClock(random: 0.25)
        let step = RetryStep(policy: RetryPolicy(maxRetries: 3), maxRetries: 3, clock: clock.clock, cancellation: nil, trace: nil,
                             redactor: Redactor(secrets: []))
        let exchange = try RequestChain(steps: [step], transport: transport, cancellation: nil).send(try unsigned())
        #expect(exchange.attempts == 4)
        #expect(exchange.response.status == 200)
        // Full jitter: 0.25 · min(10, 0.2 · 2^(n-1)).
        #expect(clock.sleeps == [0.05, 0.1, 0.2])
    }

    @Test func theRetryStepGivesUpWithTheAttemptCount() throws {
        let transport = FakeTransport([.failure(.timeout(seconds: 30))])
        let clock = RecordingClock(random: 1)
        let step = RetryStep(policy: RetryPolicy(maxRetries: 2), maxRetries: 2, clock: clock.clock, cancellation: nil, trace: nil,
                             redactor: Redactor(secrets: []))
        let error = executionError { () throws(ExecutionError) in try RequestChain(steps: [step], transport: transport, cancellation: nil).send(try! unsigned()) }
        #expect(error == .transport(.timeout(seconds: 30), attempts: 3))
        #expect(clock.sleeps == [0.2, 0.4])
    }

    // MARK: Cancellation

    @Test func cancellationBetweenRetriesEndsTheRequest() throws {
        let flag = CancellationFlag()
        let clock = RecordingClock(onSleep: { flag.cancel() })
        let transport = FakeTransport([.failure(.network("reset")), Fixtures.ok()])
        let trace = TraceRecorder()
        let client = try Fixtures.client(transport, clock: clock, cancellation: flag, trace: trace)
        #expect(throws: ExecutionError.cancelled) { try client.execute(Fixtures.query) }
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.count == 1)
    }

    @Test func theCancellationStepSendsNothingOnceCancelledAndNamesATransportCancel() throws {
        let flag = CancellationFlag()
        flag.cancel()
        let transport = FakeTransport([Fixtures.ok()])
        let chain = RequestChain(steps: [CancellationStep(cancellation: flag)], transport: transport, cancellation: flag)
        #expect(throws: ExecutionError.cancelled) { try chain.send(try unsigned()) }
        #expect(transport.requests.isEmpty)

        let dropped = FakeTransport([.failure(.cancelled)])
        let live = RequestChain(steps: [CancellationStep(cancellation: CancellationFlag())], transport: dropped, cancellation: nil)
        #expect(throws: ExecutionError.cancelled) { try live.send(try unsigned()) }
    }

    // MARK: Pacing

    @Test func thePacingStepReportsEveryAnswerAndThrottling() throws {
        let transport = FakeTransport([
            Fixtures.status(429), .failure(.network("reset")), Fixtures.ok(throttledBody), Fixtures.status(503), Fixtures.ok(deletedBody),
        ])
        let pacer = RecordingPacer()
        let step = PacingStep(pacer: pacer, cancellation: nil, clock: RecordingClock().clock)
        let chain = RequestChain(steps: [step], transport: transport, cancellation: nil)
        for _ in 0..<5 { _ = try? chain.send(try unsigned()) }
        #expect(pacer.calls == ["before", "throttled", "before", "ok", "before", "throttled", "before", "ok", "before", "ok"])
    }

    @Test func aThrottledAnswersRetryAfterReachesThePacer() throws {
        let transport = FakeTransport([
            Fixtures.status(429, headers: [HTTPHeader(name: "Retry-After", value: "2")]),
            Fixtures.status(503, headers: [HTTPHeader(name: "Retry-After", value: "7")]),
        ])
        let pacer = RecordingPacer()
        let chain = RequestChain(
            steps: [PacingStep(pacer: pacer, cancellation: nil, clock: RecordingClock().clock)], transport: transport, cancellation: nil)
        for _ in 0..<2 { _ = try? chain.send(try unsigned()) }
        #expect(pacer.calls == ["before", "throttled, retry after 2.0", "before", "ok"])
    }

    @Test func aCancelledAttemptIsNotReportedToThePacer() throws {
        let pacer = RecordingPacer()
        let chain = RequestChain(
            steps: [PacingStep(pacer: pacer, cancellation: nil, clock: RecordingClock().clock), CancellationStep(cancellation: nil)],
            transport: FakeTransport([.failure(.cancelled)]), cancellation: nil)
        #expect(throws: ExecutionError.cancelled) { try chain.send(try unsigned()) }
        #expect(pacer.calls == ["before"])
    }

    // MARK: Signing and tracing

    @Test func theSigningStepSignsEachAttemptAtTheClocksTime() throws {
        let credentials = AWSCredentials(accessKeyID: "ASIAEXAMPLE", secretAccessKey: "secret", sessionToken: nil)
        let signer = SigV4Signer(credentials: credentials, region: "eu-west-1")
        let clock = RecordingClock(now: Timestamp(secondsSince1970: 1_710_495_000))
        let transport = FakeTransport([Fixtures.ok()])
        let chain = RequestChain(steps: [SigningStep(signer: signer, clock: clock.clock)], transport: transport, cancellation: nil)
        _ = try chain.send(try unsigned())
        #expect(transport.requests.first?.headers.value(for: "X-Amz-Date") == "20240315T093000Z")
        #expect(transport.requests.first?.headers.value(for: "Authorization")?.hasPrefix("AWS4-HMAC-SHA256 ") == true)
    }

    @Test func theTracingStepTimesAttemptsOnTheInjectedMonotonicClock() throws {
        let ticks = RecordingTicks(step: 0.25)
        let clock = RetryClock(sleep: { _ in }, random: { 0 }, now: { Timestamp(secondsSince1970: 0) }, monotonic: ticks.next)
        let trace = TraceRecorder()
        let transport = FakeTransport([Fixtures.ok(), .failure(.network("reset \(Fixtures.apiKey)"))])
        let chain = RequestChain(
            steps: [TracingStep(trace: trace.sink, redactor: try Fixtures.endpoint().redactor, clock: clock)], transport: transport,
            cancellation: nil)
        _ = try chain.send(try unsigned())
        _ = try? chain.send(RequestAttempt(request: try unsigned().request, number: 2))
        let lines = trace.events.flatMap(\.lines).filter { $0.hasPrefix("< HTTP") || $0.hasPrefix("* ") || $0.hasPrefix("> POST") }
        #expect(lines.prefix(3) == [
            "> POST https://example.appsync-api.eu-west-1.amazonaws.com/graphql",
            "< HTTP 200 (32 bytes in 250 ms)",
            "> POST https://example.appsync-api.eu-west-1.amazonaws.com/graphql (attempt 2)",
        ])
        let failure = try #require(lines.last)
        #expect(failure.hasPrefix("* network error: reset ") && failure.hasSuffix(" after 250 ms"))
        #expect(!failure.contains(Fixtures.apiKey))
    }

    // MARK: Real-time reconnects share the backoff and the clock's jitter

    @Test(arguments: [(0.0, [0.25, 0.5, 1, 2, 2.5, 2.5]), (1.0, [0.5, 1, 2, 4, 5, 5])])
    func reconnectionBackoffIsDeterministicWithInjectedJitter(random: Double, waits: [Double]) throws {
        let settings = RealtimeSettings(
            url: try WebSocketURL("ws://127.0.0.1:1/graphql/realtime"),
            authorization: RealtimeAuthorization(apiURL: try EndpointURL(parsing: "https://example.com/graphql"), mode: .none), timeout: 1)
        let clock = RecordingClock(random: random)
        let subscriber = RealtimeSubscriber(settings: settings, clock: clock.clock)
        #expect((1...6).map { subscriber.backoff(attempt: $0) } == waits)
    }

    @Test func requestRetriesAndReconnectsShareOneBackoffRule() {
        let backoff = Backoff(base: 0.2, maximum: 10, jitter: .full)
        #expect(RetryPolicy().backoff == backoff)
        #expect((1...8).map { backoff.ceiling(attempt: $0) } == [0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 10, 10])
        #expect(Backoff(base: 0.5, maximum: 5, jitter: .upperHalf).delay(attempt: 2, random: 0.5) == 0.75)
    }

    // MARK: Progress is its own event

    @Test func listPagesAreCountedWithoutATrace() throws {
        let transport = FakeTransport([
            Fixtures.ok(#"{"data":{"listPosts":{"items":[{"id":"a"},{"id":"b"}],"nextToken":"t1"}}}"#),
            Fixtures.ok(#"{"data":{"listPosts":{"items":[{"id":"c"}],"nextToken":null}}}"#),
        ])
        let progress = EventRecorder<ProgressEvent>()
        var client = try Fixtures.client(transport)
        client.progress = progress.sink
        let pager = ListPager(client: client, connectionPath: ["listPosts"]) { limit, token in
            GraphQLRequest(query: "query L($limit: Int, $nextToken: String) { … }",
                           variables: ["limit": .number(JSONNumber(limit)), "nextToken": token.map(JSONValue.string) ?? .null],
                           operationType: .query, decodePath: ["listPosts"])
        }
        _ = pager.run { _ in }
        #expect(progress.events == [.page(items: 2), .page(items: 1)])
    }
}

/// A monotonic clock that moves `step` seconds each time it is read.
final class RecordingTicks: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 100.0
    let step: Double

    init(step: Double) { self.step = step }

    var next: @Sendable () -> Double {
        {
            self.lock.lock()
            defer { self.lock.unlock() }
            self.value += self.step
            return self.value
        }
    }
}

/// The bulk worker over the request steps: its faults, retries and waits.
@Suite struct ItemWorkerTests {
    static let bulk = BulkRequest(request: Fixtures.mutation, lookup: Fixtures.query, key: ["id": "p1"])

    static func perform(
        _ transport: FakeTransport, retries: Int = 3, clock: RecordingClock = RecordingClock(random: 0.5), cancellation: CancellationFlag? = nil,
        pacer: RecordingPacer? = nil
    ) throws -> BulkItemOutcome {
        var client = try Fixtures.client(transport, retries: retries, clock: clock, cancellation: cancellation)
        client.pacer = pacer
        return ItemWorker(operation: .delete, retry: client.retry, cancellation: cancellation).perform(bulk, client: client)
    }

    @Test func throttledAnswersAreRetriedWithBackoffAndSlowThePacer() throws {
        let transport = FakeTransport([Fixtures.ok(throttledBody), Fixtures.ok(throttledBody), Fixtures.ok(deletedBody)])
        let clock = RecordingClock(random: 0.5)
        let pacer = RecordingPacer()
        let outcome = try Self.perform(transport, clock: clock, pacer: pacer)
        #expect(outcome == .done(["id": "p1"]))
        #expect(transport.requests.count == 3)
        #expect(clock.sleeps == [0.1, 0.2])
        #expect(pacer.calls == ["before", "throttled", "before", "throttled", "before", "ok"])
    }

    @Test func throttlingPastTheThrottleLimitFailsWithTheServersErrors() throws {
        // Throttling alone outlasts the retries (nothing was carried out), up to the limit of throttled attempts.
        let transport = FakeTransport([Fixtures.ok(throttledBody)])
        let clock = RecordingClock(random: 0.5)
        let outcome = try Self.perform(transport, retries: 2, clock: clock)
        guard case .failed(.errors(let errors)) = outcome else { Issue.record("\(outcome)"); return }
        #expect(errors.first?.errorType == "DynamoDB:ProvisionedThroughputExceededException")
        #expect(transport.requests.count == Defaults.throttledAttemptsPerRecord)
        #expect(clock.sleeps.count == Defaults.throttledAttemptsPerRecord - 1)
        #expect(Array(clock.sleeps.prefix(2)) == [0.1, 0.2])
    }

    @Test func eachThrottledRoundHasItsOwnTransportRetries() throws {
        // A 503 retried inside the first round, a throttled answer, then a fresh round: the counts of today's bulk.
        let transport = FakeTransport([Fixtures.status(503), Fixtures.ok(throttledBody), Fixtures.status(503), Fixtures.ok(deletedBody)])
        let clock = RecordingClock(random: 0.5)
        let outcome = try Self.perform(transport, retries: 1, clock: clock)
        #expect(outcome == .done(["id": "p1"]))
        #expect(transport.requests.count == 4)
        #expect(clock.sleeps == [0.1, 0.1, 0.1])
    }

    @Test func networkFailuresAreRetriedThenReported() throws {
        #expect(try Self.perform(FakeTransport([.failure(.network("reset")), Fixtures.ok(deletedBody)])) == .done(["id": "p1"]))
        let outcome = try Self.perform(FakeTransport([.failure(.network("reset"))]), retries: 1)
        #expect(outcome == .failed(.execution(.transport(.network("reset"), attempts: 2))))
    }

    @Test func aFailedStatusSaysHowManyAttemptsItTookAndWhichAuth() throws {
        // The worker classified answers itself before: its HTTP errors lacked the attempts and the auth hint.
        let outcome = try Self.perform(FakeTransport([Fixtures.status(503)]), retries: 2)
        guard case .failed(.execution(let error)) = outcome else { Issue.record("\(outcome)"); return }
        #expect(error.description.contains("(after 3 attempts)"))
        guard case .httpStatus(let status) = error else { Issue.record("\(error)"); return }
        #expect(status.attempts == 3 && status.authorization == .keyOrToken)
    }

    @Test func cancellationDuringAThrottledWaitIsAnInterruptedWrite() throws {
        let flag = CancellationFlag()
        let clock = RecordingClock(random: 0.5, onSleep: { flag.cancel() })
        let transport = FakeTransport([Fixtures.ok(throttledBody), Fixtures.ok(deletedBody)])
        #expect(try Self.perform(transport, clock: clock, cancellation: flag) == .interrupted)
        #expect(transport.requests.count == 1)
    }

    @Test func aRefusalAfterOurOwnRetryIsCheckedByReadingTheRecord() throws {
        let refused = #"{"data":{"deletePost":null},"errors":[{"errorType":"DynamoDB:ConditionalCheckFailedException","message":"no"}]}"#
        // The first attempt's answer is lost (503), the retry is refused: the record is gone, so the delete was applied.
        let transport = FakeTransport([Fixtures.status(503), Fixtures.ok(refused), Fixtures.ok(#"{"data":{"getPost":null}}"#)])
        #expect(try Self.perform(transport) == .done(["id": "p1"]))
        #expect(transport.requests.count == 3)
        // Without a retry, a refused delete is a key that has no record.
        let once = FakeTransport([Fixtures.ok(refused)])
        #expect(try Self.perform(once) == .failed(.notFound(["id": "p1"])))
    }
}
