import GQLCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process entry point: everything else happens in `Frontend`.
@main
struct GQLC {
    static func main() {
        disableCoreDumps()
        StandardStreams.reserveClosed()
        let cancellation = CancellationFlag()
        SignalTrap.install(cancelling: cancellation)
        let frontend = Frontend(
            environment: ProcessEnvironment.current(), console: .standard(),
            runner: LiveCommandRunner(cancellation: cancellation))
        FileReader.interrupt(on: cancellation)
        let code = frontend.run(Array(CommandLine.arguments.dropFirst()))
        if code == .closedPipe { ProcessEnd.byClosedPipe() }
        exit(SignalTrap.status(code, cancelled: cancellation.isCancelled).rawValue)
    }

    /// A crash must not write the process's memory (its API key, tokens, secret key) to a core file: the core size
    /// limit is 0 for this process (systemd-coredump and apport honour it too).
    private static func disableCoreDumps() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
            _ = setrlimit(RLIMIT_CORE, &none)
        #endif
    }
}
