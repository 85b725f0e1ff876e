import Dispatch
import GQLCore
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
enum SignalTrap {
    /// Installs the trap; call it first in `main`, before any other thread starts. `flag` is cancelled on
    /// SIGINT or SIGTERM.
    static func install(cancelling flag: CancellationFlag) {
        signal(SIGPIPE, SIG_IGN)
        var trapped = sigset_t()
        sigemptyset(&trapped)
        sigaddset(&trapped, SIGINT)
        sigaddset(&trapped, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &trapped, nil)
        let waited = trapped
        DispatchQueue.global().async {
            var set = waited
            var number: Int32 = 0
            while sigwait(&set, &number) == 0 {
                flag.cancel()
            }
        }
    }
}
