import GQLCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks a yes/no question on the terminal.
enum Confirmation {
    /// Whether standard input and standard error are a terminal, so that a question can be asked and answered.
    static var canAsk: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// Prints `question [y/N] ` on stderr and reads one line; true only for `y` or `yes`. False when it cannot ask.
    /// Ctrl-C while it waits throws ``RunFailure/interrupted``.
    static func ask(_ question: String, console: Console, cancellation: CancellationFlag?) throws(RunFailure) -> Bool {
        guard canAsk else { return false }
        console.error.write("\(question) [y/N] ")
        let prompter = Prompter(fromStandardInput: true, cancellation: cancellation)
        do {
            let answer = (try prompter.readLine(descriptor: STDIN_FILENO) ?? "").trimmingWhitespace.lowercased()
            return answer == "y" || answer == "yes"
        } catch {
            console.error.write("\n")
            throw error
        }
    }

    /// The end of each refusal to go on without asking: "pass --yes to `what` (standard input is not a terminal, so
    /// gqlc cannot ask)".
    static func passYes(to what: String) -> String {
        "pass \(GlobalOptions.yesOption.flagName) to \(what) (standard input is not a terminal, so gqlc cannot ask)"
    }

    /// Asks, and says why nothing was deleted when the answer is not yes (or gqlc cannot ask): `.no`, `.cannotAsk`
    /// (`refusal` says that `--yes` is needed), or `.interrupted` by Ctrl-C.
    static func check(
        _ question: String, refusal: @autoclosure () -> String, session: Session, diagnostics: Diagnostics
    ) -> ConfirmationAnswer {
        do {
            if try ask(question, console: session.console, cancellation: session.cancellation) { return .yes }
        } catch {
            diagnostics.error("interrupted; nothing was deleted")
            return .interrupted
        }
        if canAsk {
            diagnostics.error("nothing was deleted")
            return .no
        }
        diagnostics.error(refusal())
        return .cannotAsk
    }
}
