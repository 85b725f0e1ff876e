import GQLCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Console {
    /// The process's standard output and standard error, where a failed write of standard output ends the process
    /// at once, as Unix tools do: a closed pipe by SIGPIPE (status 141 in the shell, as jq and gh), with nothing more
    /// printed (no resume token, no message); any other error with one line on stderr and status 7.
    static func standard() -> Console {
        standard { failure in StandardOutputSink.end(failure) }
    }
}

extension StandardOutputSink {
    /// Ends the process for a failed write of standard output.
    static func end(_ failure: WriteFailure) -> Never {
        switch failure {
        case .closedPipe:
            ProcessEnd.byClosedPipe()
        case .failed(let reason):
            // A progress line may be drawn on the terminal: the message replaces it.
            let erase = StandardStreams.isTerminal(STDERR_FILENO) ? "\r\u{1B}[K" : ""
            FileDescriptorSink(descriptor: STDERR_FILENO).write(erase + "gqlc: cannot write standard output: \(reason)\n")
            _exit(ExitCode.writeFailed.rawValue)  // at once, as by the signal: other threads may still be running
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
