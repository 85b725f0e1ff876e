import GQLCore

/// The whole program minus process concerns: arguments and environment in, text and an exit code out.
///
/// ```swift
/// let frontend = Frontend(
///     environment: ProcessInfo.processInfo.environment, console: .standard(),
///     runner: LiveCommandRunner(cancellation: CancellationFlag()))
/// let code = frontend.run(Array(CommandLine.arguments.dropFirst()))
/// ```
struct Frontend: Sendable {
    let environment: [String: String]
    let console: Console
    /// Carries out runnable commands; help, version and usage errors are handled here.
    let runner: any CommandRunner

    /// `environment` as the process has it; a `GQLC_*` (or CA file) variable set but empty counts as unset, here
    /// and only here (see ``GlobalOptions/emptyMeansUnset(_:)``).
    init(environment: [String: String], console: Console, runner: any CommandRunner) {
        self.environment = environment.filter { !($0.value.isEmpty && GlobalOptions.emptyMeansUnset($0.key)) }
        self.console = console
        self.runner = runner
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    func run(_ arguments: [String]) -> ExitCode {
        if arguments.first == CompletionCandidates.commandName {
            return CompletionCandidates.run(Array(arguments.dropFirst()), environment: environment, console: console)
        }
        let parsed: ParsedCommandLine
        do {
            parsed = try CommandLineParser.parse(arguments, environment: environment)
        } catch {
            Diagnostics(sink: console.error).error(error.message)
            return .usage
        }
        switch parsed {
        case .help(let topic):
            console.output.write(HelpText.render(topic: topic))
            return .success
        case .fullHelp(let topic):
            console.output.write(HelpText.render(topic: topic, allGlobalOptions: true))
            return .success
        case .manPage:
            console.output.write(HelpText.manPage())
            return .success
        case .version:
            console.output.write(Version.line + "\n")
            return .success
        case .completion(let shell):
            console.output.write(CompletionScript.render(shell))
            return .success
        case .run(let run):
            return runner.run(run, console: console)
        }
    }
}

/// Executes a parsed invocation: builds the request, talks to the server, prints, and picks the exit code.
protocol CommandRunner: Sendable {
    func run(_ run: CommandRun, console: Console) -> ExitCode
}
