import GQLCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the user for a name, a password or a code: on the terminal (without echo for secrets), or with
/// `--password-stdin` one line at a time from standard input (the password first, then any answers a challenge needs).
/// The reading is the core's ``TerminalInput``; this phrases its failures.
struct Prompter {
    let fromStandardInput: Bool
    /// Set by Ctrl-C (SIGINT is blocked in every thread and taken by ``SignalTrap``): a prompt then stops waiting.
    var cancellation: CancellationFlag?

    /// One line, without its line ending; `what` names it in errors and in the prompt.
    func line(_ what: String, secret: Bool) throws(RunFailure) -> String {
        if fromStandardInput {
            guard let line = try readLine(descriptor: STDIN_FILENO) else {
                throw .usage("standard input ended before the \(what)")
            }
            return line
        }
        let line: String?
        do throws(TerminalInput.Failure) {
            line = try TerminalInput.ask("\(what.prefix(1).uppercased())\(what.dropFirst()): ", secret: secret, cancellation: cancellation)
        } catch {
            switch error {
            case .interrupted: throw .interrupted
            case .noTerminal:
                throw .usage("no terminal to ask for the \(what) on; pass \(LoginCommand.passwordStdin.flagName) and write it to standard input")
            }
        }
        guard let line else { throw .usage("no \(what) given") }
        return line
    }

    /// One line from `descriptor` (``TerminalInput/readLine(descriptor:cancellation:)``); Ctrl-C or SIGTERM ends the
    /// wait (``RunFailure/interrupted``).
    func readLine(descriptor: Int32) throws(RunFailure) -> String? {
        do throws(TerminalInput.Failure) {
            return try TerminalInput.readLine(descriptor: descriptor, cancellation: cancellation)
        } catch {
            throw .interrupted
        }
    }
}
