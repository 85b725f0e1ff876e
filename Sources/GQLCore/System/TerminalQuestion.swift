#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A yes/no question before something is done, asked on the terminal: standard error shows it (through `sink`) and
/// standard input answers; a wait ends on `cancellation` (Ctrl-C).
public struct TerminalQuestion: Sendable {
    /// Where the question is written (standard error).
    public let sink: any OutputSink
    public let cancellation: CancellationFlag?

    public init(sink: any OutputSink, cancellation: CancellationFlag?) {
        (self.sink, self.cancellation) = (sink, cancellation)
    }

    /// Whether standard input and standard error are a terminal, so that a question can be asked and answered.
    public static var canAsk: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// Writes `question [y/N] ` and reads one line; true only for `y` or `yes`. False when it cannot ask.
    public func ask(_ question: String) throws(TerminalInput.Failure) -> Bool {
        guard Self.canAsk else { return false }
        sink.write("\(question) [y/N] ")
        do throws(TerminalInput.Failure) {
            let answer = (try TerminalInput.readLine(descriptor: STDIN_FILENO, cancellation: cancellation) ?? "")
            let word = answer.trimmingWhitespace.lowercased()
            return word == "y" || word == "yes"
        } catch {
            sink.write("\n")
            throw error
        }
    }

    /// Asks, and when the answer is not yes says through `say` that nothing was `undone` (`deleted`, `sent`), or
    /// `refusal` when nobody can answer: `.no`, `.cannotAsk`, or `.interrupted` by Ctrl-C.
    public func confirm(
        _ question: String, undone: String, refusal: @autoclosure () -> String, say: (String) -> Void
    ) -> ConfirmationAnswer {
        do {
            if try ask(question) { return .yes }
        } catch {
            say("interrupted; nothing was \(undone)")
            return .interrupted
        }
        if Self.canAsk {
            say("nothing was \(undone)")
            return .no
        }
        say(refusal())
        return .cannotAsk
    }
}
