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

    init(environment: [String: String], console: Console, runner: any CommandRunner) {
        self.environment = environment
        self.console = console
        self.runner = runner
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    func run(_ arguments: [String]) -> ExitCode {
        let parsed: ParsedCommandLine
        do {
            parsed = try CommandLineParser.parse(arguments, environment: environment)
        } catch {
            console.error.write(Diagnostics.oneLine(error.description) + "\n")
            return .usage
        }
        switch parsed {
        case .help(let topic):
            console.output.write(HelpText.render(topic: topic))
            return .success
        case .version:
            console.output.write(Version.line + "\n")
            return .success
        case .completion(let shell):
            console.output.write(CompletionScript.render(shell))
            return .success
        case .run(let invocation):
            return runner.run(invocation, console: console)
        }
    }
}

/// Executes a parsed invocation: builds the request, talks to the server, prints, and picks the exit code.
protocol CommandRunner: Sendable {
    func run(_ invocation: Invocation, console: Console) -> ExitCode
}

extension ParsedCommand {
    /// The command's name as typed (`get`).
    var name: String {
        switch self {
        case .get: GetCommand.spec.name
        case .list: ListCommand.spec.name
        case .create: CreateCommand.spec.name
        case .update: UpdateCommand.spec.name
        case .delete: DeleteCommand.spec.name
        case .models: ModelsCommand.spec.name
        case .raw: RawCommand.spec.name
        case .subscribe: SubscribeCommand.spec.name
        }
    }
}
