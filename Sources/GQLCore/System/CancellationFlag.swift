import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread-safe "stop now" flag, set from a SIGINT/SIGTERM handler and checked by the pager and transport.
///
/// Work in progress can register handlers that run once when the flag is set (the transport cancels its
/// in-flight request), and sleepers can wait on it so a retry delay ends as soon as the user presses Ctrl-C.
/// A waiter sleeps in `poll` on a pipe that ``cancel()`` writes to once the handlers have run.
public final class CancellationFlag: Sendable {
    private struct State {
        var cancelled = false
        // Set after the handlers have run; waiters wake on it, so they see the handlers' effects.
        var handlersDone = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandlerID = 0
        // The wake-up pipe, made by the first waiter; -1 until then.
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
    }

    private let state = Mutex(State())

    /// Makes a new instance.
    public init() {}

    deinit {
        state.withLock { state in
            if state.wakeRead >= 0 { close(state.wakeRead) }
            if state.wakeWrite >= 0 { close(state.wakeWrite) }
        }
    }

    /// True once ``cancel()`` has been called.
    public var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// Sets the flag, runs the registered handlers (once), then wakes every waiter. Safe to call repeatedly.
    public func cancel() {
        let toRun: [@Sendable () -> Void]? = state.withLock { state in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.handlers.removeAll() }
            return Array(state.handlers.values)
        }
        guard let toRun else { return }
        for handler in toRun { handler() }
        let wake = state.withLock { state in
            state.handlersDone = true
            return state.wakeWrite
        }
        if wake >= 0 {
            var byte: UInt8 = 1
            _ = write(wake, &byte, 1)  // never read: every waiter, now and later, sees it readable
        }
    }

    /// Registers `handler` to run when the flag is set; runs it at once if it already is.
    /// Returns a registration to pass to ``removeHandler(_:)`` when the work is done.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        let id: Int? = state.withLock { state in
            guard !state.cancelled else { return nil }
            let id = state.nextHandlerID
            state.nextHandlerID += 1
            state.handlers[id] = handler
            return id
        }
        guard let id else {
            handler()
            return -1
        }
        return id
    }

    /// Forgets a handler registered with ``onCancel(_:)``.
    public func removeHandler(_ id: Int) {
        state.withLock { $0.handlers[id] = nil }
    }

    /// Blocks for up to `seconds`, returning early when the flag is set. Returns true if it was set.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        let deadline = MonotonicTime.seconds() + max(0, seconds)
        while true {
            let wake = wakeDescriptor()
            let remaining = deadline - MonotonicTime.seconds()
            guard let wake, remaining > 0 else { return isCancelled }
            let milliseconds = Int32(min((remaining * 1000).rounded(.up), Double(Int32.max)))
            guard wake >= 0 else {
                ThreadSleep.seconds(min(remaining, 0.01))
                continue
            }
            var entry = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, milliseconds) < 0 && errno != EINTR { ThreadSleep.seconds(min(remaining, 0.01)) }
        }
    }

    /// Blocks until `descriptor` is ready to be read (data, its end, or an error for the read to report) or the flag
    /// is set, whichever comes first; false when the flag was set. A read that follows a true answer does not block
    /// (on a pipe, FIFO or terminal with a single reader), so standard input, a FIFO or a terminal ends its wait on
    /// Ctrl-C too.
    public func waitUntilReadable(_ descriptor: Int32) -> Bool {
        while true {
            if isCancelled { return false }
            guard let wake = wakeDescriptor() else { return false }
            var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            // Without a pipe, look at the flag every 10 ms.
            let ready = poll(&entries, wake >= 0 ? 2 : 1, wake >= 0 ? -1 : 10)
            if ready < 0 && errno != EINTR { return !isCancelled }  // the read reports what is wrong
            if entries[0].revents != 0 { return !isCancelled }
        }
    }

    /// Blocks until `descriptor` is ready to be read; with a flag, as ``waitUntilReadable(_:)`` (false once it is
    /// set), and without one until there is something to read (or an error, which the read then reports).
    public static func waitUntilReadable(_ descriptor: Int32, or flag: CancellationFlag?) -> Bool {
        guard let flag else {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, -1) < 0 && errno == EINTR {}
            return true
        }
        return flag.waitUntilReadable(descriptor)
    }

    /// The read end of the wake-up pipe (made on first use); nil once the handlers have run, -1 when no pipe could
    /// be made (then waiters look at the flag in short slices).
    private func wakeDescriptor() -> Int32? {
        state.withLock { state in
            guard !state.handlersDone else { return nil }
            if state.wakeRead < 0 { (state.wakeRead, state.wakeWrite) = Self.makePipe() ?? (-1, -1) }
            return state.wakeRead
        }
    }

    private static func makePipe() -> (Int32, Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}
