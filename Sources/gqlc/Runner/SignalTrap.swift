import Dispatch
import GQLCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Ctrl-C and SIGTERM into a cancellation that the core checks between pages and during waits,
/// so that a listing can stop cleanly and print where to resume. A closed pipe becomes a failed write.
enum SignalTrap {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Installs the handlers once per process; `flag` is cancelled on SIGINT or SIGTERM.
    static func install(cancelling flag: CancellationFlag) {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { flag.cancel() }
            source.resume()
            sources.append(source)
        }
    }
}
