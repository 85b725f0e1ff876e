import Foundation

/// The process entry point: everything else happens in `Frontend`.
@main
struct GQLC {
    static func main() async {
        let frontend = Frontend(environment: ProcessInfo.processInfo.environment, console: .standard())
        let code = await frontend.run(Array(CommandLine.arguments.dropFirst()))
        exit(code.rawValue)
    }
}
