import Foundation
import GQLCore
import Synchronization
import Testing

@testable import gqlc

/// A text sink that keeps everything written to it.
final class CapturedOutput: TextSink {
    private let buffer = Mutex("")

    func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    var text: String { buffer.withLock { $0 } }
}

/// A runner that records the invocation it was given instead of running it.
final class RecordingRunner: CommandRunner {
    private let received = Mutex<[CommandRun]>([])
    let exitCode: ExitCode

    init(exitCode: ExitCode = .success) {
        self.exitCode = exitCode
    }

    func run(_ invocation: CommandRun, console: Console) -> ExitCode {
        received.withLock { $0.append(invocation) }
        console.output.write("ran \(invocation.command.name)\n")
        return exitCode
    }

    var invocations: [CommandRun] { received.withLock { $0 } }
}

/// What one run of the front end produced.
struct RunResult {
    let code: ExitCode
    let output: String
    let error: String
}

/// Runs the front end on `arguments` with captured streams.
func runGQLC(
    _ arguments: [String], environment: [String: String] = [:], runner: any CommandRunner = RecordingRunner()
) -> RunResult {
    let output = CapturedOutput()
    let error = CapturedOutput()
    let frontend = Frontend(
        environment: environment, console: Console(output: output, error: error, outputIsTerminal: false),
        runner: runner)
    let code = frontend.run(arguments)
    return RunResult(code: code, output: output.text, error: error.text)
}

/// The command and globals of a command line that must parse to a runnable invocation.
func invocation(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandRun {
    let parsed = try CommandLineParser.parse(arguments, environment: environment)
    guard case .run(let invocation) = parsed else {
        Issue.record("expected a runnable command line, got \(parsed)")
        throw UsageError("not runnable")
    }
    return invocation
}

/// The usage error line of a command line that must fail to parse, as printed (`gqlc: …`; nil if it parsed).
func usageError(_ arguments: [String], environment: [String: String] = [:]) -> String? {
    do {
        _ = try CommandLineParser.parse(arguments, environment: environment)
        return nil
    } catch {
        return "gqlc: " + error.message
    }
}

/// Splits a shell command line from a help example into words: single and double quotes, backslash-newline
/// continuations, and a pipeline (only the `gqlc` stage is returned, without the program name).
func shellWords(_ command: String) -> [String] {
    let joined = command.replacingOccurrences(of: "\\\n", with: " ")
    var stages: [[String]] = [[]]
    var word = ""
    var inWord = false
    var quote: Character?
    for character in joined {
        if let open = quote {
            if character == open { quote = nil } else { word.append(character) }
            continue
        }
        switch character {
        case "'", "\"":
            quote = character
            inWord = true
        case " ", "\n":
            if inWord { stages[stages.count - 1].append(word) }
            word = ""
            inWord = false
        case "|":
            if inWord { stages[stages.count - 1].append(word) }
            word = ""
            inWord = false
            stages.append([])
        default:
            word.append(character)
            inWord = true
        }
    }
    if inWord { stages[stages.count - 1].append(word) }
    let stage = stages.first { $0.first == "gqlc" } ?? []
    return Array(stage.dropFirst())
}
