import Foundation

/// A thread-safe "stop now" flag, set from a SIGINT/SIGTERM handler and checked by the pager and transport.
///
/// Work in progress can register handlers that run once when the flag is set (the transport cancels its
/// in-flight request), and sleepers can wait on it so a retry delay ends as soon as the user presses Ctrl-C.
public final class CancellationFlag: @unchecked Sendable {
    // All state is guarded by `condition`.
    private let condition = NSCondition()
    private var cancelled = false
    // Set after the handlers have run; waiters wake on it, so they see the handlers' effects.
    private var handlersDone = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandlerID = 0

    /// Makes a new instance.
    public init() {}

    /// True once ``cancel()`` has been called.
    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Sets the flag, runs the registered handlers (once), then wakes every waiter. Safe to call repeatedly.
    public func cancel() {
        condition.lock()
        guard !cancelled else {
            condition.unlock()
            return
        }
        cancelled = true
        let toRun = handlers.values
        handlers.removeAll()
        condition.unlock()
        for handler in toRun { handler() }
        condition.lock()
        handlersDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Registers `handler` to run when the flag is set; runs it at once if it already is.
    /// Returns a registration to pass to ``removeHandler(_:)`` when the work is done.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        condition.lock()
        if cancelled {
            condition.unlock()
            handler()
            return -1
        }
        let id = nextHandlerID
        nextHandlerID += 1
        handlers[id] = handler
        condition.unlock()
        return id
    }

    /// Forgets a handler registered with ``onCancel(_:)``.
    public func removeHandler(_ id: Int) {
        condition.lock()
        handlers[id] = nil
        condition.unlock()
    }

    /// Blocks for up to `seconds`, returning early when the flag is set. Returns true if it was set.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        condition.lock()
        defer { condition.unlock() }
        while !handlersDone {
            if !condition.wait(until: deadline) { break }
        }
        return cancelled
    }
}
