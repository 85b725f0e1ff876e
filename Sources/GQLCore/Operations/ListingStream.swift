import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A model's records as another API lists them, for a copy: a thread pages through the listing while the restore
/// reads its records, at most a few pages ahead, so memory stays flat and nothing is written to disk.
public final class ListingStream: RecordStream, @unchecked Sendable {
    private let state = Mutex(State())
    private let available = CountingSemaphore(0)
    private let space: CountingSemaphore
    private var thread = pthread_t()
    private var started = false
    private var index = 0

    private struct State: ~Copyable {
        var pages = Deque<[JSONValue]>()
        var current: [JSONValue] = []
        var position = 0
        var ended = false
        var stopped = false
        var failure: String?
        var failureKind = ResultKind.graphQLErrors
    }

    /// Starts listing; at most `pagesAhead` pages wait to be read.
    public init(pager: ListPager, pagesAhead: Int = 4) {
        space = CountingSemaphore(pagesAhead)
        let box = Unmanaged.passRetained(Producer(stream: self, pager: pager)).toOpaque()
        started = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Producer>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box) == 0
        if !started {
            Unmanaged<Producer>.fromOpaque(box).release()
            finish(failure: "cannot start a thread to list the source")
        }
    }

    private final class Producer {
        let stream: ListingStream
        let pager: ListPager
        init(stream: ListingStream, pager: ListPager) {
            self.stream = stream
            self.pager = pager
        }
        func run() {
            let result = pager.run { items throws in
                stream.space.wait()
                guard stream.state.withLock({ state in
                    if state.stopped { return false }
                    state.pages.append(items)
                    return true
                }) else { throw CancellationError() }
                stream.available.signal()
            }
            switch result.stop {
            case .endOfList, .limitReached, .consumerFailed: stream.finish(failure: nil)
            case .cancelled: stream.finish(failure: "interrupted while listing", kind: result.kind)
            case .graphQLErrors(let errors), .partial(let errors):
                stream.finish(failure: errors.map(\.message).joined(separator: "; "), kind: result.kind)
            case .failed(let error): stream.finish(failure: "\(error)", kind: result.kind)
            }
        }
    }

    private func finish(failure: String?, kind: ResultKind = .graphQLErrors) {
        state.withLock { state in
            state.ended = true
            if state.failure == nil, let failure {
                state.failure = failure
                state.failureKind = kind
            }
        }
        available.signal()
    }

    /// Why the listing ended early, when it did; nil while it goes on or after it ended well.
    public var failure: String? { state.withLock { $0.failure } }

    /// How the listing failed, as `list` would exit: an HTTP or network failure, GraphQL errors, an interruption.
    public var failureKind: ResultKind { state.withLock { $0.failureKind } }

    private enum Step {
        case record(JSONValue)
        case newPage
        case wait
        case end
    }

    /// The next record listed, waiting for the next page when needed; nil at the end.
    public func nextItem() throws(BulkInputError) -> BulkInputItem? {
        guard let record = nextRecord() else { return nil }
        defer { index += 1 }
        // The parsed record goes with its text, so that a restore does not parse it again.
        return BulkInputItem(
            index: index, line: 0, column: 1, bytes: Array(record.serialized(.compact).utf8), isOversized: false, parsed: record)
    }

    /// The records as listed, neither serialized nor parsed again.
    public func nextValue() throws(BulkInputError) -> (value: JSONValue?, line: Int)? {
        nextRecord().map { ($0, 0) }
    }

    private func nextRecord() -> JSONValue? {
        while true {
            let step: Step = state.withLock { state in
                if state.position < state.current.count {
                    defer { state.position += 1 }
                    return .record(state.current[state.position])
                }
                if let page = state.pages.popFirst() {
                    state.current = page
                    state.position = 0
                    return .newPage
                }
                return state.ended ? .end : .wait
            }
            switch step {
            case .record(let record): return record
            case .newPage: space.signal()  // the listing may fetch one more page ahead
            case .wait: available.wait()
            case .end: return nil
            }
        }
    }

    /// Stops the listing (if it is still running) and waits for its thread.
    public func close() {
        state.withLock { $0.stopped = true }
        space.signal()
        if started {
            pthread_join(thread, nil)
            started = false
        }
    }
}

/// A counting semaphore: `wait` takes one from the count (waiting while it is 0), `signal` gives one back.
final class CountingSemaphore: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Made at 0 and signalled up to `value`: libdispatch refuses to free a semaphore whose count is below the one
    /// it was made with, as the stream's may be when it stops early.
    init(_ value: Int) {
        for _ in 0..<value { semaphore.signal() }
    }

    func wait() { semaphore.wait() }

    func signal() { semaphore.signal() }
}
