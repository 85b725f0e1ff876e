import Dispatch
import Synchronization

/// What a bulk job does to each record.
public enum BulkOperation: String, Sendable, Equatable {
    case create, update, delete

    /// `created`, `updated`, `deleted`.
    public var pastTense: String { rawValue + "d" }
}

/// One item's mutation, built before it is sent.
public struct BulkRequest: Sendable {
    /// The mutation, carrying the record's key (generated for a create before the first attempt).
    public var request: GraphQLRequest
    /// A `get` of the same key: a write refused by its condition after our own retry is looked up, and counted as
    /// done when the earlier attempt was applied (see ``RefusedWrite``). Nil when the model has no get.
    public var lookup: GraphQLRequest?
    /// The key as sent, for messages and for the rejects file (`{"id":"…"}`).
    public var key: JSONObject

    public init(request: GraphQLRequest, lookup: GraphQLRequest?, key: JSONObject) {
        self.request = request
        self.lookup = lookup
        self.key = key
    }
}

/// How one item ended.
public enum BulkItemOutcome: Sendable, Equatable {
    /// Done: the record as the server returned it.
    case done(JSONValue)
    /// Refused or failed.
    case failed(BulkItemFailure)
    /// Not sent because the job was interrupted first.
    case notSent
    /// Sent, but the job was interrupted before the answer: it may or may not have been applied.
    case interrupted
}

/// One item's result, handed out in input order.
public struct BulkItemResult: Sendable {
    public let item: BulkInputItem
    public let outcome: BulkItemOutcome
    /// The key the item was sent with, when it got that far.
    public let key: JSONObject?

    public init(item: BulkInputItem, outcome: BulkItemOutcome, key: JSONObject? = nil) {
        self.item = item
        self.outcome = outcome
        self.key = key
    }
}

/// Counts so far; handed to a progress display after each result.
public struct BulkCounts: Sendable, Equatable {
    public var done = 0
    public var failed = 0
    public var notSent = 0
    public var interrupted = 0
    /// Seconds since the job started.
    public var seconds = 0.0

    public init() {}

    /// Every item accounted for.
    public var total: Int { done + failed + notSent + interrupted }

    /// 0 when every item was done, 3 when some failed, 1 when none was done; cancelled is the caller's call.
    public var kind: ResultKind {
        if failed + notSent + interrupted == 0 { return .success }
        return done == 0 ? .graphQLErrors : .partial
    }
}

/// Runs a bulk job: items are read on the calling thread, sent by `concurrency` workers (each with its own
/// connection, all paced by one ``AdaptiveRateLimiter``), and their results handed to `emit` one at a time, in
/// input order. At most a window of items beyond the oldest unfinished one is read ahead, so memory stays flat.
///
/// Every item is retried on transient failures (``RetryPolicy``), which is safe: a create carries its key
/// (given, or generated before the first attempt), so a second attempt cannot create twice; an update sets the same
/// values again. A refusal after our own retry ("already exists", "not found") may be the first attempt's doing: the
/// record is read (``RefusedWrite``), and the item is done when it holds what was sent, or is gone after a delete. Throttled attempts (HTTP 429, GraphQL throttling errors) were not carried out: they slow the shared pacer and are
/// retried beyond the usual retries (``Defaults/throttledAttemptsPerRecord``).
public struct BulkRunner: Sendable {
    public var operation: BulkOperation
    /// Workers (requests in flight).
    public var concurrency: Int
    /// Transient failures retried per item.
    public var retry: RetryPolicy
    public var cancellation: CancellationFlag?
    /// Makes worker `n`'s client; the runner sets its pacer.
    public var makeClient: @Sendable (Int) -> GraphQLClient
    /// Called with the counts after each result (a progress display's seam); nil for none.
    public var progress: (@Sendable (BulkCounts) -> Void)?
    /// Set (``CancellationFlag/cancel()``) to stop starting items, when their results can no longer be written:
    /// what is in flight finishes and is counted as usual, and the rest is emitted as not sent.
    public var halt: CancellationFlag?
    /// Told when the shared pacing starts or changes materially under throttling, and why (a few per job); nil for none.
    public var pacingNotice: (@Sendable (PacingNotice) -> Void)?

    public init(
        operation: BulkOperation, concurrency: Int, retry: RetryPolicy, cancellation: CancellationFlag?,
        makeClient: @escaping @Sendable (Int) -> GraphQLClient, progress: (@Sendable (BulkCounts) -> Void)? = nil
    ) {
        self.operation = operation
        self.concurrency = max(1, concurrency)
        self.retry = retry
        self.cancellation = cancellation
        self.makeClient = makeClient
        self.progress = progress
    }

    /// What stopped the job early, besides cancellation.
    public enum Stop: Sendable, Equatable {
        case endOfInput
        case cancelled
        /// ``halt`` was set: the items not started were emitted as not sent.
        case halted
        /// The input could not be read on; the items before it were processed.
        case inputFailed(BulkInputError)
    }

    /// Runs the job over the items `next` reads (nil at the end). `prepare` builds an item's request (on this thread; a failure is that
    /// item's result, and nothing is sent for it). `emit` receives each result in input order, never two at once.
    /// After an interruption, the unread rest of the input is emitted as not sent when `readRestWhenCancelled`.
    public func run(
        next: () throws(BulkInputError) -> BulkInputItem?, readRestWhenCancelled: Bool,
        prepare: (BulkInputItem) -> Result<BulkRequest, BulkPrepareFailure>,
        emit: @escaping @Sendable (BulkItemResult) -> Void
    ) -> (counts: BulkCounts, stop: Stop) {
        let started = MonotonicTime.seconds()
        let window = concurrency * 8
        let slots = DispatchSemaphore(value: window)
        let available = DispatchSemaphore(value: 0)
        let cancellation = self.cancellation
        let progress = self.progress
        let pacer = AdaptiveRateLimiter(sleep: RetryClock.live(cancellation: cancellation).sleep, notice: pacingNotice)
        let shared = Mutex(Shared())

        @Sendable func deliver(_ result: BulkItemResult) {
            shared.withLock { state in
                state.pending[result.item.index] = result
                while let next = state.pending.removeValue(forKey: state.nextToEmit) {
                    state.nextToEmit += 1
                    switch next.outcome {
                    case .done: state.counts.done += 1
                    case .failed: state.counts.failed += 1
                    case .notSent: state.counts.notSent += 1
                    case .interrupted: state.counts.interrupted += 1
                    }
                    state.counts.seconds = MonotonicTime.seconds() - started
                    // Counts first, so that a display redrawn around this result's output shows it.
                    progress?(state.counts)
                    emit(next)
                    slots.signal()
                }
            }
        }

        let worker = ItemWorker(operation: operation, retry: retry, cancellation: cancellation)
        let makeClient = self.makeClient
        let halt = self.halt
        var stop = Stop.endOfInput
        WorkerThreads.run(count: concurrency, { number in
            var client = makeClient(number)
            client.pacer = pacer
            while true {
                available.wait()
                guard let popped = shared.withLock({ $0.queue.popFirst() }), let (item, request) = popped else {
                    return  // the end
                }
                if cancellation?.isCancelled == true || halt?.isCancelled == true {
                    deliver(BulkItemResult(item: item, outcome: .notSent, key: request.key))
                    continue
                }
                deliver(BulkItemResult(item: item, outcome: worker.perform(request, client: client), key: request.key))
            }
        }, meanwhile: {
            while true {
                slots.wait()
                if cancellation?.isCancelled == true {
                    stop = .cancelled
                    slots.signal()
                    break
                }
                if halt?.isCancelled == true {
                    stop = .halted
                    slots.signal()
                    break
                }
                let item: BulkInputItem
                do throws(BulkInputError) {
                    guard let read = try next() else {
                        slots.signal()
                        break
                    }
                    item = read
                } catch {
                    stop = .inputFailed(error)
                    slots.signal()
                    break
                }
                switch prepare(item) {
                case .success(let request):
                    shared.withLock { $0.queue.append((item, request)) }
                    available.signal()
                case .failure(let failure):
                    deliver(BulkItemResult(item: item, outcome: .failed(.invalid(failure.message))))
                }
            }
            shared.withLock { state in
                for _ in 0..<concurrency { state.queue.append(nil) }
            }
            for _ in 0..<concurrency { available.signal() }
        })
        if stop == .cancelled && readRestWhenCancelled || stop == .halted {
            // After a halt the input is read to its end (a pipe's writer is still writing), unless Ctrl-C comes.
            while stop == .cancelled || cancellation?.isCancelled != true, let item = try? next() {
                deliver(BulkItemResult(item: item, outcome: .notSent))
            }
        }
        if stop == .endOfInput && cancellation?.isCancelled == true { stop = .cancelled }
        let counts = shared.withLock { state in
            var counts = state.counts
            counts.seconds = MonotonicTime.seconds() - started
            return counts
        }
        return (counts, stop)
    }

    private struct Shared: ~Copyable {
        /// Items waiting for a worker; nil tells a worker to stop.
        var queue = Deque<(BulkInputItem, BulkRequest)?>()
        /// Results that arrived before an earlier item's.
        var pending: [Int: BulkItemResult] = [:]
        var nextToEmit = 0
        var counts = BulkCounts()
    }
}

/// Why one item failed.
public enum BulkItemFailure: Sendable, Equatable {
    /// The item cannot be sent as given (bad JSON, an unknown field): the message says what.
    case invalid(String)
    /// No usable answer after the retries.
    case execution(ExecutionError)
    /// The server's GraphQL errors.
    case errors([GraphQLError])
    /// A create refused because a record with the key exists that does not hold what was sent; `afterRetry`: gqlc
    /// had retried the create, so its own earlier attempt (whose answer was lost) may have made it.
    case alreadyExists(JSONObject, afterRetry: Bool)
    /// An update or delete refused after gqlc retried it, and a read of the record could not confirm that the
    /// earlier attempt was applied: it may have been.
    case refusedAfterRetry(JSONObject)
    /// An update or delete of a key that has no record.
    case notFound(JSONObject)
}

/// Why an item's request could not be built: the message names the item's problem.
public struct BulkPrepareFailure: Error, Sendable, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }
}

/// A first-in first-out queue with O(1) removal at the front.
struct Deque<Element> {
    private var items: [Element] = []
    private var head = 0

    init() {}

    mutating func append(_ element: Element) { items.append(element) }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return element
    }
}
