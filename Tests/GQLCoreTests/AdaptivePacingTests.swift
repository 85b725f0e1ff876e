import Synchronization
import Testing
@testable import GQLCore

/// The bulk pacer under throttling (issue 21, point 10), on a clock the test moves: a server whose throttles do not
/// depend on the rate must not slow a job to a crawl; one whose throttles do must still slow it; `Retry-After` holds
/// every attempt; successes restore the rate; the notices are few.
@Suite struct AdaptivePacingTests {
    /// A fake clock (seconds) and the notices a limiter emitted.
    final class Bench: Sendable {
        let time = Mutex(1000.0)
        let said = Mutex<[PacingNotice]>([])
        var now: Double { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
        var notices: [PacingNotice] { said.withLock { $0 } }

        func limiter() -> AdaptiveRateLimiter {
            AdaptiveRateLimiter(now: { self.now }, sleep: { self.advance($0) }, notice: { notice in self.said.withLock { $0.append(notice) } })
        }

        /// Sends `count` attempts one after another, each taking `latency` seconds, and answers them by `throttles`
        /// (given the attempt's number and the time it was sent); returns the attempts per second achieved.
        @discardableResult
        func run(_ limiter: AdaptiveRateLimiter, count: Int, latency: Double = 0.01, from first: Int = 1,
                 throttles: (Int, Double) -> Bool) -> Double {
            let start = now
            for number in first..<(first + count) {
                limiter.beforeAttempt(cancellation: nil)
                let sent = now
                advance(latency)
                limiter.afterAttempt(throttled: throttles(number, sent))
            }
            return Double(count) / (now - start)
        }
    }

    @Test func everyFifthRequestThrottledWhateverTheRateDoesNotCollapseThroughput() {
        let bench = Bench()
        let limiter = bench.limiter()
        // Unpaced, this server answers 100 attempts a second; every 5th is throttled, at any pace.
        bench.run(limiter, count: 1000) { number, _ in number % 5 == 0 }
        let steady = bench.run(limiter, count: 2000, from: 1001) { number, _ in number % 5 == 0 }
        // botocore's limiter cuts on each of those throttles and ends near its floor (about 1 attempt a second).
        #expect(steady > 50, "paced at \(steady) attempts/s")
        #expect(bench.notices.first.map { if case .started = $0 { true } else { false } } == true, "\(bench.notices)")
        #expect(bench.notices.contains { if case .independentOfRate(let fraction, _) = $0 { fraction > 0.1 && fraction < 0.3 } else { false } },
                "\(bench.notices)")
    }

    @Test func throttlesThatRiseWithTheRateStillSlowItDown() {
        let bench = Bench()
        let limiter = bench.limiter()
        // A server that admits 20 requests a second (a token bucket of 20) and throttles the rest.
        let bucket = Mutex((tokens: 20.0, at: 1000.0))
        let server = { (_: Int, time: Double) -> Bool in
            bucket.withLock { state in
                state.tokens = min(20, state.tokens + (time - state.at) * 20)
                state.at = time
                guard state.tokens >= 1 else { return true }
                state.tokens -= 1
                return false
            }
        }
        bench.run(limiter, count: 1000, throttles: server)
        let throttled = Mutex(0)
        let rate = bench.run(limiter, count: 1000, from: 1001) { number, time in
            let refused = server(number, time)
            if refused { throttled.withLock { $0 += 1 } }
            return refused
        }
        // Unpaced it would send 100 a second and have 80% throttled.
        #expect(rate < 40, "sent \(rate) attempts/s")
        #expect(throttled.withLock { $0 } < 300)
        // Said: pacing started, then the slowdown to under half of that pace; no "independent of the rate".
        #expect(bench.notices.contains { if case .changed(let rate) = $0 { rate < 35 } else { false } }, "\(bench.notices)")
        #expect(!bench.notices.contains { if case .independentOfRate = $0 { true } else { false } }, "\(bench.notices)")
    }

    @Test func successesRestoreTheRateAfterThrottlingStops() {
        let bench = Bench()
        let limiter = bench.limiter()
        bench.run(limiter, count: 400) { number, _ in number % 2 == 0 }
        let throttledRate = limiter.rate ?? 0
        let recovered = bench.run(limiter, count: 2000, from: 401) { _, _ in false }
        #expect((limiter.rate ?? 0) > throttledRate)
        #expect(recovered > 50, "recovered to \(recovered) attempts/s")
    }

    @Test func retryAfterHoldsEveryAttemptUntilThen() {
        let bench = Bench()
        let limiter = bench.limiter()
        bench.run(limiter, count: 50) { _, _ in false }
        limiter.afterAttempt(throttled: true, retryAfter: 4)
        let before = bench.now
        limiter.beforeAttempt(cancellation: nil)
        #expect(bench.now - before >= 4)
        // Said once, though the next workers meet the same wait.
        limiter.afterAttempt(throttled: true, retryAfter: 4)
        #expect(bench.notices.filter { $0 == .retryAfter(seconds: 4) }.count == 1, "\(bench.notices)")
        // A Retry-After beyond the longest honoured is cut to it.
        limiter.afterAttempt(throttled: true, retryAfter: 3600)
        let waited = bench.now
        limiter.beforeAttempt(cancellation: nil)
        #expect(bench.now - waited >= Defaults.maximumRetryAfter && bench.now - waited <= Defaults.maximumRetryAfter + 1)
    }

    @Test func aCancelledWaitForRetryAfterReturnsAtOnce() {
        let bench = Bench()
        let limiter = bench.limiter()
        limiter.afterAttempt(throttled: true, retryAfter: 30)
        let flag = CancellationFlag()
        flag.cancel()
        let before = bench.now
        limiter.beforeAttempt(cancellation: flag)
        #expect(bench.now == before)
    }

    @Test func noticesAreFewNotOnePerThrottle() {
        let bench = Bench()
        let limiter = bench.limiter()
        bench.run(limiter, count: 5000) { number, _ in number % 5 == 0 }
        // 1,000 throttles; a handful of lines.
        #expect(bench.notices.count >= 2 && bench.notices.count <= 6, "\(bench.notices)")
    }

    /// Whether the notices say the throttles were found not to depend on the rate (about a fifth of the answers).
    static func saysIndependent(_ notices: [PacingNotice]) -> Bool {
        notices.contains { if case .independentOfRate(let fraction, _) = $0 { fraction > 0.1 && fraction < 0.3 } else { false } }
    }

    @Test func timeBeforeTheFirstAttemptIsNotTakenForASlowSendRate() {
        let bench = Bench()
        let limiter = bench.limiter()
        // A busy machine: seconds pass between the job's start and its first request (threads, clients, input).
        bench.advance(3)
        let steady = bench.run(limiter, count: 2000) { number, _ in number % 5 == 0 }
        // The first throttle comes at 100 attempts a second; pacing starts near that, not near the floor.
        guard case .started(let rate)? = bench.notices.first else {
            Issue.record("\(bench.notices)")
            return
        }
        #expect(rate > 20, "\(bench.notices)")
        #expect(steady > 50, "paced at \(steady) attempts/s")
        #expect(Self.saysIndependent(bench.notices), "\(bench.notices)")
    }

    @Test func aPaceStartedTooLowStillFindsThrottlesIndependentOfTheRate() {
        let bench = Bench()
        let limiter = bench.limiter()
        // The first answers are slow (a server warming up on a loaded machine), so pacing starts at a few attempts a
        // second; then the server answers 100 a second, every 5th throttled at any pace. The pace climbs back, and a
        // round that was sent faster than the one that caused the last cut becomes the one to judge against.
        bench.run(limiter, count: 5, latency: 0.5) { number, _ in number % 5 == 0 }
        bench.run(limiter, count: 1500, from: 6) { number, _ in number % 5 == 0 }
        let steady = bench.run(limiter, count: 1500, from: 1506) { number, _ in number % 5 == 0 }
        #expect(Self.saysIndependent(bench.notices), "\(bench.notices)")
        #expect(steady > 50, "paced at \(steady) attempts/s")
    }

    @Test func aBurstOfFirstAnswersAfterASlowStartStillFindsIndependentThrottlesWithinAJobOf300() {
        let bench = Bench()
        let limiter = bench.limiter()
        // Eight workers send at once and, on a loaded machine, all their answers come 0.6 s later, the 5th throttled:
        // the first half-second measured one answer, so pacing starts near 1 attempt a second.
        for _ in 1...8 { limiter.beforeAttempt(cancellation: nil) }
        bench.advance(0.6)
        for number in 1...8 { limiter.afterAttempt(throttled: number == 5) }
        // The rest of a 300-record job (about 375 attempts with its throttled ones, 30 a second unpaced) finds the throttles independent
        // of the rate as the pace climbs back, instead of cutting round after round.
        bench.run(limiter, count: 367, latency: 0.033, from: 9) { number, _ in number % 5 == 0 }
        #expect(Self.saysIndependent(bench.notices), "\(bench.notices)")
    }

    @Test func noticesSayWhatIsHappening() {
        #expect(PacingNotice.started(rate: 7.04).description == "the server is throttling requests; pacing them at 7 requests/s")
        #expect(PacingNotice.changed(rate: 0.5).description == "pacing requests at 0.5 requests/s (the server is throttling)")
        #expect(PacingNotice.changed(rate: 12.5).description == "pacing requests at 13 requests/s (the server is throttling)")
        #expect(PacingNotice.independentOfRate(fraction: 0.2, rate: 64.4).description
            == "about 20% of requests are throttled whatever the pace, so slowing down does not help; "
            + "pacing them at 64 requests/s and retrying the throttled ones")
        #expect(PacingNotice.retryAfter(seconds: 2).description
            == "the server asked to wait 2 s (Retry-After); every request waits")
    }
}

/// A bulk record is not failed for throttling alone while its throttle retries last (issue 21, point 10).
@Suite struct ThrottledRecordTests {
    static let created = #"{"data":{"createPost":{"id":"p1","title":"x"}}}"#
    static let request = BulkRequest(
        request: GraphQLRequest(query: "mutation CreatePost($input: CreatePostInput!) {\n  createPost(input: $input) {\n    id\n    title\n  }\n}",
                                variables: ["input": ["id": "p1", "title": "x"]], operationType: .mutation, decodePath: ["createPost"]),
        lookup: nil, key: ["id": "p1"])
    static let throttle = Fixtures.status(429, #"{"errors":[{"errorType":"TooManyRequestsException","message":"Rate exceeded"}]}"#)

    @Test func aRecordThrottledMoreTimesThanItsRetriesIsStillDone() throws {
        // Seven throttles in a row, then the answer; --retries 3 would have failed it after four.
        let transport = FakeTransport(Array(repeating: Self.throttle, count: 7) + [Fixtures.ok(Self.created)])
        let client = try Fixtures.client(transport, retries: 3)
        let worker = ItemWorker(operation: .create, retry: client.retry, cancellation: nil)
        #expect(worker.perform(Self.request, client: client) == .done(["id": "p1", "title": "x"]))
        #expect(transport.requests.count == 8)
    }

    @Test func graphQLThrottlingErrorsAreRetriedPastTheRetriesToo() throws {
        let throttled = Fixtures.ok(#"{"data":{"createPost":null},"errors":[{"errorType":"DynamoDB:ProvisionedThroughputExceededException","message":"slow down"}]}"#)
        let transport = FakeTransport(Array(repeating: throttled, count: 6) + [Fixtures.ok(Self.created)])
        let client = try Fixtures.client(transport, retries: 2)
        let worker = ItemWorker(operation: .create, retry: client.retry, cancellation: nil)
        #expect(worker.perform(Self.request, client: client) == .done(["id": "p1", "title": "x"]))
    }

    @Test func throttlingForEverFailsTheRecordAtTheLimit() throws {
        let transport = FakeTransport([Self.throttle])
        let client = try Fixtures.client(transport, retries: 3)
        let worker = ItemWorker(operation: .create, retry: client.retry, cancellation: nil)
        guard case .failed(.execution(.httpStatus(let status))) = worker.perform(Self.request, client: client) else {
            Issue.record("not a failure")
            return
        }
        #expect(status.status == 429)
        #expect(transport.requests.count == Defaults.throttledAttemptsPerRecord)
    }

    @Test func noRetriesMeansNoThrottleRetriesEither() throws {
        let transport = FakeTransport([Self.throttle, Fixtures.ok(Self.created)])
        let client = try Fixtures.client(transport, retries: 0)
        let worker = ItemWorker(operation: .create, retry: client.retry, cancellation: nil)
        guard case .failed = worker.perform(Self.request, client: client) else {
            Issue.record("retried although --retries is 0")
            return
        }
        #expect(transport.requests.count == 1)
    }
}
