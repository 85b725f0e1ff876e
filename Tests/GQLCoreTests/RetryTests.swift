import Foundation
import Testing
@testable import GQLCore

@Suite struct RetryTests {
    @Test func throttledQueryIsRetriedWithJitteredBackoff() throws {
        let transport = FakeTransport([Fixtures.status(429), Fixtures.status(429), Fixtures.ok()])
        let clock = RecordingClock(random: 0.5)
        let response = try Fixtures.client(transport, clock: clock).execute(Fixtures.query)
        #expect(response.data?["getPost"]?["id"] == "p1")
        #expect(transport.requests.count == 3)
        // Full jitter: random · min(10, 0.2 · 2^(n-1)).
        #expect(clock.sleeps == [0.1, 0.2])
    }

    @Test func serverErrorsExhaustRetriesAndKeepTheLastStatus() throws {
        let transport = FakeTransport([Fixtures.status(503, #"{"errors":[{"errorType":"ServiceUnavailable","message":"busy"}]}"#)])
        let clock = RecordingClock(random: 0.5)
        #expect {
            try Fixtures.client(transport, retries: 3, clock: clock).execute(Fixtures.query)
        } throws: { error in
            guard case .httpStatus(let status) = error as? ExecutionError else { return false }
            return status.status == 503 && status.attempts == 4 && status.errorType == "ServiceUnavailable"
        }
        #expect(transport.requests.count == 4)
        #expect(clock.sleeps == [0.1, 0.2, 0.4])
    }

    @Test(arguments: [429, 500, 502, 503, 504])
    func transientStatusesAreRetried(status: Int) throws {
        let transport = FakeTransport([Fixtures.status(status), Fixtures.ok()])
        _ = try Fixtures.client(transport, clock: RecordingClock(random: 0)).execute(Fixtures.query)
        #expect(transport.requests.count == 2)
    }

    @Test(arguments: [400, 401, 403, 404, 413, 501, 505, 599])
    func finalStatusesAreNotRetried(status: Int) throws {
        let transport = FakeTransport([Fixtures.status(status), Fixtures.ok()])
        #expect(throws: ExecutionError.self) { try Fixtures.client(transport).execute(Fixtures.query) }
        #expect(transport.requests.count == 1)
    }

    @Test func networkErrorsAndTimeoutsAreRetried() throws {
        let transport = FakeTransport([.failure(.network("connection refused")), .failure(.timeout(seconds: 30)), Fixtures.ok()])
        let clock = RecordingClock(random: 1)
        _ = try Fixtures.client(transport, clock: clock).execute(Fixtures.query)
        #expect(transport.requests.count == 3)
        #expect(clock.sleeps == [0.2, 0.4])
    }

    @Test func persistentTimeoutEndsAsNetworkFailure() throws {
        let transport = FakeTransport([.failure(.timeout(seconds: 30))])
        let clock = RecordingClock()
        let client = try Fixtures.client(transport, retries: 2, clock: clock)
        let error = try #require(executionError { () throws(ExecutionError) in try client.execute(Fixtures.query) })
        #expect(error == .transport(.timeout(seconds: 30), attempts: 3))
        #expect(error.kind == .network)
        #expect(error.description.contains("after 3 attempts"))
        #expect(clock.sleeps.count == 2)
    }

    @Test func backoffIsCapped() {
        let policy = RetryPolicy(maxRetries: 20)
        #expect(policy.backoffCeiling(retry: 1) == 0.2)
        #expect(policy.backoffCeiling(retry: 6) == 6.4)
        #expect(policy.backoffCeiling(retry: 7) == 10)
        #expect(policy.backoffCeiling(retry: 500) == 10)
        #expect(policy.delay(retry: 500, retryAfter: nil, random: 0.25) == 2.5)
    }

    @Test func retryAfterSecondsIsHonoured() throws {
        let transport = FakeTransport([Fixtures.status(429, headers: [HTTPHeader(name: "retry-after", value: "7")]), Fixtures.ok()])
        let clock = RecordingClock(random: 0.5)
        _ = try Fixtures.client(transport, clock: clock).execute(Fixtures.query)
        #expect(clock.sleeps == [7])
    }

    @Test func retryAfterDateIsHonouredRelativeToNow() throws {
        // The clock's now is 2015-10-21 07:27:30 GMT, 30 s before the date.
        let header = HTTPHeader(name: "Retry-After", value: "Wed, 21 Oct 2015 07:28:00 GMT")
        let transport = FakeTransport([Fixtures.status(503, headers: [header]), Fixtures.ok()])
        let clock = RecordingClock()
        _ = try Fixtures.client(transport, clock: clock).execute(Fixtures.query)
        #expect(clock.sleeps == [30])
    }

    @Test func longRetryAfterIsCapped() throws {
        let transport = FakeTransport([Fixtures.status(429, headers: [HTTPHeader(name: "Retry-After", value: "3600")]), Fixtures.ok()])
        let clock = RecordingClock()
        _ = try Fixtures.client(transport, clock: clock).execute(Fixtures.query)
        #expect(clock.sleeps == [60])
    }

    @Test func retryAfterParsing() {
        let now = Timestamp(secondsSince1970: 1_445_412_450)
        #expect(RetryAfter.seconds(from: "120", now: now) == 120)
        #expect(RetryAfter.seconds(from: " 0 ", now: now) == 0)
        #expect(RetryAfter.seconds(from: "Wed, 21 Oct 2015 07:28:00 GMT", now: now) == 30)
        #expect(RetryAfter.seconds(from: "Thu, 01 Jan 1970 00:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == Timestamp(secondsSince1970: 784_111_777))
        #expect(RetryAfter.httpDate("Tue, 29 Feb 2000 12:00:00 GMT") == Timestamp(secondsSince1970: 951_825_600))
        #expect(RetryAfter.seconds(from: "soon", now: now) == nil)
        #expect(RetryAfter.seconds(from: "-5", now: now) == nil)
        #expect(RetryAfter.seconds(from: "Wed, 21 Foo 2015 07:28:00 GMT", now: now) == nil)
    }

    @Test func mutationsAreNotRetriedByDefault() throws {
        let transport = FakeTransport([Fixtures.status(503), Fixtures.ok()])
        #expect(throws: ExecutionError.self) { try Fixtures.client(transport).execute(Fixtures.mutation) }
        #expect(transport.requests.count == 1)

        let network = FakeTransport([.failure(.network("reset")), Fixtures.ok()])
        #expect(throws: ExecutionError.transport(.network("reset"), attempts: 1)) { try Fixtures.client(network).execute(Fixtures.mutation) }
        #expect(network.requests.count == 1)
    }

    @Test func idempotentMutationIsRetriedWhenAllowed() throws {
        let transport = FakeTransport([Fixtures.status(503), Fixtures.ok(#"{"data":{"deletePost":{"id":"p1"}}}"#)])
        let mayRetry = RetryPolicy.mayRetry(.mutation, retryMutations: true, mutationIsIdempotent: true)
        _ = try Fixtures.client(transport).execute(Fixtures.mutation, mayRetry: mayRetry)
        #expect(transport.requests.count == 2)
    }

    @Test func retryEligibilityFollowsTheIssueRules() {
        #expect(RetryPolicy.mayRetry(.query, retryMutations: false, mutationIsIdempotent: false))
        #expect(!RetryPolicy.mayRetry(.mutation, retryMutations: false, mutationIsIdempotent: true))
        #expect(!RetryPolicy.mayRetry(.mutation, retryMutations: true, mutationIsIdempotent: false))
        #expect(RetryPolicy.mayRetry(.mutation, retryMutations: true, mutationIsIdempotent: true))
        #expect(!RetryPolicy.mayRetry(.subscription, retryMutations: true, mutationIsIdempotent: true))
    }

    @Test(arguments: [400, 401, 403, 404, 413])
    func clientErrorsAreNeverRetried(status: Int) throws {
        let transport = FakeTransport([Fixtures.status(status, #"{"errors":[{"errorType":"X","message":"no"}]}"#), Fixtures.ok()])
        let clock = RecordingClock()
        #expect(throws: ExecutionError.self) { try Fixtures.client(transport, clock: clock).execute(Fixtures.query) }
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func zeroRetriesSendsOnce() throws {
        let transport = FakeTransport([Fixtures.status(503), Fixtures.ok()])
        #expect(throws: ExecutionError.self) { try Fixtures.client(transport, retries: 0).execute(Fixtures.query) }
        #expect(transport.requests.count == 1)
    }

    @Test func cancelledRequestIsNotRetried() throws {
        let transport = FakeTransport([.failure(.cancelled), Fixtures.ok()])
        #expect(throws: ExecutionError.cancelled) { try Fixtures.client(transport).execute(Fixtures.query) }
        #expect(transport.requests.count == 1)
        #expect(ExecutionError.cancelled.kind == .cancelled)
    }

    @Test func cancellationDuringBackoffStopsRetrying() throws {
        let flag = CancellationFlag()
        let clock = RecordingClock(onSleep: { flag.cancel() })
        let transport = FakeTransport([Fixtures.status(503), Fixtures.ok()])
        #expect(throws: ExecutionError.cancelled) { try Fixtures.client(transport, clock: clock, cancellation: flag).execute(Fixtures.query) }
        #expect(transport.requests.count == 1)
    }

    @Test func retriesAreTraced() throws {
        let transport = FakeTransport([Fixtures.status(429), Fixtures.ok()])
        let trace = TraceRecorder()
        _ = try Fixtures.client(transport, clock: RecordingClock(random: 0.5), trace: trace).execute(Fixtures.query)
        let retries = trace.events.filter { if case .retry = $0 { return true } else { return false } }
        #expect(retries == [.retry(retry: 1, maxRetries: 3, reason: .status(429), delay: 0.1)])
        let attempts = trace.events.compactMap { event -> Int? in
            if case .request(_, _, _, _, let attempt) = event { return attempt } else { return nil }
        }
        #expect(attempts == [1, 2])
        #expect(retries.first?.lines == ["* retry 1/3 after HTTP 429 (throttled), waiting 100 ms"])
    }

    @Test func requestCarriesEndpointHeadersAndJSONBody() throws {
        let transport = FakeTransport([Fixtures.ok()])
        _ = try Fixtures.client(transport).execute(Fixtures.query)
        let sent = try #require(transport.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.timeout == 30)
        #expect(sent.headers.value(for: "content-type") == "application/json")
        #expect(sent.headers.value(for: "X-API-KEY") == Fixtures.apiKey)
        #expect(transport.sentBodies.first == Fixtures.query.body)
    }
}
