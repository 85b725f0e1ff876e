import GQLCore

/// The guard of a protected or read-only named environment, checked once per command before anything is sent.
enum WriteGuard {
    /// nil to go on; else the exit status after saying why nothing was sent: 2 for a read-only environment or a
    /// protected one without `--yes` where nothing can ask, 1 when the answer is no, 130 for Ctrl-C.
    static func check(_ what: String, session: Session, diagnostics: Diagnostics) -> ExitCode? {
        let globals = session.globals
        guard let selected = globals.environment, !globals.dryRun else { return nil }
        let environment = selected.environment
        if environment.isReadOnly {
            let line = environment.setting(.readOnly)?.line ?? environment.line
            diagnostics.error(
                "environment '\(environment.name)' is read-only (\(selected.path):\(line)); refusing to \(what): nothing was sent")
            return .usage
        }
        guard environment.isProtected, !globals.yes else { return nil }
        let answer = Confirmation.check(
            "\(what) in the protected environment '\(environment.name)'?", undone: "sent",
            refusal: "environment '\(environment.name)' is protected; \(Confirmation.passYes(to: what)): nothing was sent",
            session: session, diagnostics: diagnostics)
        return answer.refusal.map(ExitCode.init)
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
