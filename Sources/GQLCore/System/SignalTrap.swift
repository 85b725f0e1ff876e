import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Ctrl-C and SIGTERM into a cancellation that the core checks between pages and during waits,
/// so that a listing can stop cleanly and print where to resume. A closed pipe becomes a failed write.
///
/// SIGINT and SIGTERM are blocked in the calling thread, and so in every thread started after it, and one
/// thread takes them with `sigwait`. A blocked signal stays pending until it is taken, so one that arrives
/// the moment after `install` returns is never lost (a dispatch signal source registers asynchronously, and a
/// signal sent before it has is dropped), and no handler runs in signal context.
///
/// The first signal sets the flag, and ``firstSignal`` says which it was (a program's exit status then says so: 130 for
/// SIGINT, 143 for SIGTERM). A second signal runs the action given to ``onSecondSignal(_:)``, if any (a program that
/// waits for goodbyes may exit at once).
///
/// The waiting thread is a plain detached POSIX thread with a small stack: starting Dispatch's thread pool
/// for it (an epoll instance, a timer and two threads) cost every command about a millisecond at startup.
public enum SignalTrap {
    private final class Waiter {
        let flag: CancellationFlag
        var signals: sigset_t
        init(flag: CancellationFlag, signals: sigset_t) { self.flag = flag; self.signals = signals }
    }

    /// The first signal taken, 0 before any.
    private static let first = Atomic<Int32>(0)
    /// What a second signal does, given the first signal's number; nothing until ``onSecondSignal(_:)``.
    private static let second = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    /// The first signal taken (SIGINT or SIGTERM), nil before any.
    public static var firstSignal: Int32? {
        let number = first.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : number
    }

    /// From now on a second Ctrl-C or SIGTERM runs `action` with the first signal's number, on the trap's thread,
    /// without waiting for whatever the first one is finishing.
    public static func onSecondSignal(_ action: @escaping @Sendable (Int32) -> Void) {
        second.withLock { $0 = action }
    }

    /// The first signal cancels `flag`; a second runs the ``onSecondSignal(_:)`` action.
    private static func take(_ number: Int32, cancelling flag: CancellationFlag) {
        if first.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent).exchanged {
            flag.cancel()
        } else if let action = second.withLock({ $0 }) {
            action(first.load(ordering: .sequentiallyConsistent))
        }
    }

    /// Installs the trap; call it first in `main`, before any other thread starts. `flag` is cancelled on
    /// SIGINT or SIGTERM; SIGPIPE is ignored from then on, so that a closed pipe is a failed write.
    public static func install(cancelling flag: CancellationFlag) {
        signal(SIGPIPE, SIG_IGN)
        var trapped = sigset_t()
        sigemptyset(&trapped)
        sigaddset(&trapped, SIGINT)
        sigaddset(&trapped, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &trapped, nil)
        let waiter = Unmanaged.passRetained(Waiter(flag: flag, signals: trapped)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let made = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let waiter = Unmanaged<Waiter>.fromOpaque(raw).takeRetainedValue()
            var number: Int32 = 0
            while sigwait(&waiter.signals, &number) == 0 {
                SignalTrap.take(number, cancelling: waiter.flag)
            }
            return nil
        }, waiter)
        if made != 0 {
            // No thread: let the signals act as they would without the trap.
            Unmanaged<Waiter>.fromOpaque(waiter).release()
            pthread_sigmask(SIG_UNBLOCK, &trapped, nil)
        }
    }
}
