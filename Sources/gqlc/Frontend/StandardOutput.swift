import GQLCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a write failed.
enum WriteFailure: Sendable, Equatable {
    /// The reader went away (EPIPE): `gqlc list | head`.
    case closedPipe
    /// Any other error (a full disk, an I/O error), as the system words it.
    case failed(String)
}

/// Standard output, where a failed write ends the process at once, as Unix tools do: a closed pipe by SIGPIPE
/// (status 141 in the shell, as jq and gh), with nothing more printed (no resume token, no message); any other
/// error with one line on stderr and status 7. Ending at the failed write is what makes every write checked,
/// whichever command made it.
///
/// A bulk job, which must account for its records first, calls ``deferFailures()``: then a failed write returns
/// false and ``failure`` keeps the first one; the job stops starting records and ends with ``end(_:)``.
final class StandardOutputSink: TextSink {
    private let state = Mutex<(deferring: Bool, failure: WriteFailure?)>((false, nil))

    func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    @discardableResult func write(bytes: [UInt8]) -> Bool {
        guard let failure = FileDescriptorSink.write(bytes, to: STDOUT_FILENO) else { return true }
        let deferring = state.withLock { state in
            if state.failure == nil { state.failure = failure }
            return state.deferring
        }
        if !deferring { Self.end(failure) }
        return false
    }

    func deferFailures() { state.withLock { $0.deferring = true } }

    var failure: WriteFailure? { state.withLock { $0.failure } }

    /// Ends the process for a failed write of standard output.
    static func end(_ failure: WriteFailure) -> Never {
        switch failure {
        case .closedPipe:
            ProcessEnd.byClosedPipe()
        case .failed(let reason):
            // A progress line may be drawn on the terminal: the message replaces it.
            let erase = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : ""
            FileDescriptorSink(descriptor: STDERR_FILENO).write(erase + "gqlc: cannot write standard output: \(reason)\n")
            _exit(ExitCode.writeFailed.rawValue)  // at once, as by the signal: other threads may still be running
        }
    }
}

extension Diagnostics {
    /// After a job that deferred `output`'s failures: nil when every write succeeded; else ``ExitCode/closedPipe``
    /// (nothing said), or ``ExitCode/writeFailed`` after one line saying why.
    func outputFailure(_ output: any TextSink) -> ExitCode? {
        switch output.failure {
        case nil: return nil
        case .closedPipe?: return .closedPipe
        case .failed(let reason)?:
            error("cannot write standard output: \(reason)")
            return .writeFailed
        }
    }
}

/// The ways the process ends other than returning an exit code.
enum ProcessEnd {
    /// Ends the process as SIGPIPE's default action does, so that the shell (and `set -o pipefail`) sees 141,
    /// as for any Unix tool whose reader went away. gqlc ignores SIGPIPE while it runs, so that a closed pipe
    /// is a failed write it can account for; this restores the default and raises it.
    static func byClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_UNBLOCK, &pipeOnly, nil)
        raise(SIGPIPE)
        _exit(128 + SIGPIPE)
    }
}

/// The three standard streams as the process was started with them.
enum StandardStreams {
    /// Occupies a closed standard stream (`gqlc list >&-`) with /dev/null opened the wrong way round, before
    /// anything else is opened: no file or connection gqlc opens later can get its number (and receive its output),
    /// and a write to a closed stdout fails (EBADF) and is reported instead of vanishing.
    static func reserveClosed() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
