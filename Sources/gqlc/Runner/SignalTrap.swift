import GQLCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exit statuses of the signals the core's ``SignalTrap`` takes.
extension SignalTrap {
    /// From now on a second Ctrl-C or SIGTERM exits at once (with the first signal's status), without waiting for
    /// whatever the first one is finishing.
    static func exitOnSecondSignal() {
        onSecondSignal { first in _exit(interruption(first).rawValue) }
    }

    /// The exit status of a command that ended with `code`. Once a signal has arrived, a command that did not
    /// succeed ends with the signal's status (a read, a wait or a request that it cut short fails in its own way).
    static func status(_ code: ExitCode, cancelled: Bool) -> ExitCode {
        guard cancelled, code != .success else { return code }
        return interruption(firstSignal ?? 0)
    }

    /// 143 for SIGTERM, else 130.
    private static func interruption(_ signal: Int32) -> ExitCode {
        signal == SIGTERM ? .terminated : .interrupted
    }
}
