import GQLCore

/// The command line's side of a yes/no question (the core's ``TerminalQuestion``): `--yes` where nothing can ask.
enum Confirmation {
    /// The end of each refusal to go on without asking: "pass --yes to `what` (standard input is not a terminal, so
    /// gqlc cannot ask)".
    static func passYes(to what: String) -> String {
        "pass \(GlobalOptions.yesOption.flagName) to \(what) (standard input is not a terminal, so gqlc cannot ask)"
    }

    /// Asks on the session's terminal, and says why nothing was `undone` (deleted) when the answer is not yes:
    /// `.no`, `.cannotAsk` (`refusal` says that `--yes` is needed), or `.interrupted` by Ctrl-C.
    static func check(
        _ question: String, undone: String = "deleted", refusal: @autoclosure () -> String, session: Session,
        diagnostics: Diagnostics
    ) -> ConfirmationAnswer {
        TerminalQuestion(sink: session.console.error, cancellation: session.cancellation)
            .confirm(question, undone: undone, refusal: refusal(), say: diagnostics.error)
    }
}
