import GQLCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the user for a name, a password or a code: on the terminal (without echo for secrets), or with
/// `--password-stdin` one line at a time from standard input (the password first, then any answers a challenge needs).
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
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else {
            throw .usage("no terminal to ask for the \(what) on; pass \(LoginCommand.passwordStdin.flagName) and write it to standard input")
        }
        defer { close(tty) }
        // Echo goes off before the prompt appears, so nothing typed after it is shown (or flushed).
        var saved = termios()
        let hidden = secret && tcgetattr(tty, &saved) == 0
        if hidden {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(tty, TCSANOW, &quiet)
        }
        let prompt = Array("\(what.prefix(1).uppercased())\(what.dropFirst()): ".utf8)
        _ = prompt.withUnsafeBytes { write(tty, $0.baseAddress, $0.count) }
        let line: String?
        do throws(RunFailure) {
            line = try readLine(descriptor: tty)
        } catch {
            if hidden { tcsetattr(tty, TCSANOW, &saved) }
            _ = write(tty, "\n", 1)
            throw error
        }
        if hidden {
            tcsetattr(tty, TCSANOW, &saved)
            _ = write(tty, "\n", 1)
        }
        guard let line else { throw .usage("no \(what) given") }
        return line
    }

    /// Bytes up to a newline (dropped, with a `\r` before it) or the end; nil at the end with nothing read.
    /// One byte at a time, so that nothing after the line is consumed; each wait also ends on Ctrl-C or SIGTERM
    /// (``RunFailure/interrupted``).
    func readLine(descriptor: Int32) throws(RunFailure) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard CancellationFlag.waitUntilReadable(descriptor, or: cancellation) else { throw .interrupted }
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
