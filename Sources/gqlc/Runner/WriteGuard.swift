import GQLCore

/// The guard of a protected or read-only named environment, checked once per command before anything is sent.
enum WriteGuard {
    /// nil to go on; else the exit status after saying why nothing was sent: 2 for a read-only environment or a
    /// protected one without `--yes` where nothing can ask, 1 when the answer is no, 130 for Ctrl-C.
    static func check(_ what: String, session: Session, diagnostics: Diagnostics) -> ExitCode? {
        let globals = session.globals
        guard let selected = globals.environment, !globals.dryRun else { return nil }
        switch selected.writeGuard(what) {
        case .open: return nil
        case .refused(let reason):
            diagnostics.error(reason)
            return .usage
        case .confirm(let question, let refusal):
            guard !globals.yes else { return nil }
            let answer = Confirmation.check(
                question, undone: "sent", refusal: "\(refusal); \(Confirmation.passYes(to: what)): nothing was sent", session: session,
                diagnostics: diagnostics)
            return answer.refusal.map(ExitCode.init)
        }
    }

    /// Under `--verbose`: which environment was chosen, from which file, and where each of its settings stands.
    static func noteEnvironment(_ globals: GlobalOptions, console: Console) {
        guard globals.verbose, let selected = globals.environment else { return }
        console.error.write(
            "* environment: \(selected.name) (\(selected.path):\(selected.environment.line), chosen by "
                + "\(selected.selectedBy.describe(GlobalOptions.envOption)))\n")
        for line in selected.provenanceLines { console.error.write("*   \(line)\n") }
    }
}
