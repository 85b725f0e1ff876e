import GQLCore

/// Asks the user for a name, a password or a code: the core's ``LinePrompter`` (on the terminal, or with
/// `--password-stdin` one line at a time from standard input), its failures phrased for the command line.
struct Prompter {
    let fromStandardInput: Bool
    /// Set by Ctrl-C (SIGINT is blocked in every thread and taken by ``SignalTrap``): a prompt then stops waiting.
    var cancellation: CancellationFlag?

    private var prompter: LinePrompter { LinePrompter(fromStandardInput: fromStandardInput, cancellation: cancellation) }

    /// One line, without its line ending; `what` names it in errors and in the prompt.
    func line(_ what: String, secret: Bool) throws(RunFailure) -> String {
        do throws(LinePrompter.Failure) {
            return try prompter.line(what, secret: secret)
        } catch {
            throw RunFailure(error)
        }
    }
}
