import Foundation
import GQLCore

/// The process entry point: everything else happens in `Frontend`.
@main
struct GQLC {
    static func main() {
        let cancellation = CancellationFlag()
        SignalTrap.install(cancelling: cancellation)
        let frontend = Frontend(
            environment: ProcessInfo.processInfo.environment, console: .standard(),
            runner: LiveCommandRunner(cancellation: cancellation))
        let code = frontend.run(Array(CommandLine.arguments.dropFirst()))
        exit(code.rawValue)
    }
}
