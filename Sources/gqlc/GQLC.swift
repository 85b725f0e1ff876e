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
        ProcessLimits.disableCoreDumps()
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
}
