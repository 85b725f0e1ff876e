#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines read from a person: from the process's terminal (without echo for secrets), or one line at a time from a
/// descriptor such as standard input. Each wait ends on a cancellation (Ctrl-C, SIGTERM: see ``SignalTrap``).
public enum TerminalInput {
    /// Why no line was read.
    public enum Failure: Error, Sendable, Equatable {
        /// The cancellation flag was set while waiting.
        case interrupted
        /// The process has no terminal to ask on (`/dev/tty` cannot be opened).
        case noTerminal
    }

    /// Writes `prompt` on the process's terminal and reads one line from it, with echo off when `secret` (turned off
    /// before the prompt appears, so nothing typed after it is shown, and back on after the line); nil when the input
    /// ended with nothing typed.
    public static func ask(_ prompt: String, secret: Bool, cancellation: CancellationFlag?) throws(Failure) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { throw .noTerminal }
        defer { close(tty) }
        var saved = termios()
        let hidden = secret && tcgetattr(tty, &saved) == 0
        if hidden {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(tty, TCSANOW, &quiet)
        }
        let bytes = Array(prompt.utf8)
        _ = bytes.withUnsafeBytes { write(tty, $0.baseAddress, $0.count) }
        let line: String?
        do throws(Failure) {
            line = try readLine(descriptor: tty, cancellation: cancellation)
        } catch {
            if hidden { tcsetattr(tty, TCSANOW, &saved) }
            _ = write(tty, "\n", 1)
            throw error
        }
        if hidden {
            tcsetattr(tty, TCSANOW, &saved)
            _ = write(tty, "\n", 1)
        }
        return line
    }

    /// Bytes up to a newline (dropped, with a `\r` before it) or the end; nil at the end with nothing read.
    /// One byte at a time, so that nothing after the line is consumed; each wait also ends on `cancellation`.
    public static func readLine(descriptor: Int32, cancellation: CancellationFlag?) throws(Failure) -> String? {
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

/// Asks a person for a name, a password or a code: on the terminal (without echo for secrets), or one line at a time
/// from standard input (a password piped in, then any answers a challenge needs). Ctrl-C or SIGTERM ends each wait.
public struct LinePrompter: Sendable {
    /// Why no answer was read; each says what was asked for (`what`).
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Standard input ended before the answer.
        case inputEnded(String)
        /// There is no terminal to ask on (and answers are not read from standard input).
        case noTerminal(String)
        /// The terminal's input ended with nothing typed.
        case notGiven(String)
        /// Cancelled while waiting.
        case interrupted

        /// `standard input ended before the password`, `no terminal to ask for the password on`, …
        public var description: String {
            switch self {
            case .inputEnded(let what): "standard input ended before the \(what)"
            case .noTerminal(let what): "no terminal to ask for the \(what) on"
            case .notGiven(let what): "no \(what) given"
            case .interrupted: "interrupted"
            }
        }
    }

    /// Whether answers are read from standard input instead of the terminal.
    public let fromStandardInput: Bool
    /// Set by Ctrl-C or SIGTERM: a prompt then stops waiting.
    public var cancellation: CancellationFlag?

    public init(fromStandardInput: Bool, cancellation: CancellationFlag?) {
        self.fromStandardInput = fromStandardInput
        self.cancellation = cancellation
    }

    /// One line, without its line ending; `what` names it in the prompt (`Password: `) and in failures.
    public func line(_ what: String, secret: Bool) throws(Failure) -> String {
        if fromStandardInput {
            guard let line = try readLine(descriptor: STDIN_FILENO) else { throw .inputEnded(what) }
            return line
        }
        let line: String?
        do throws(TerminalInput.Failure) {
            line = try TerminalInput.ask("\(what.prefix(1).uppercased())\(what.dropFirst()): ", secret: secret, cancellation: cancellation)
        } catch {
            throw error == .interrupted ? .interrupted : .noTerminal(what)
        }
        guard let line else { throw .notGiven(what) }
        return line
    }

    /// One line from `descriptor` (``TerminalInput/readLine(descriptor:cancellation:)``).
    private func readLine(descriptor: Int32) throws(Failure) -> String? {
        do throws(TerminalInput.Failure) {
            return try TerminalInput.readLine(descriptor: descriptor, cancellation: cancellation)
        } catch {
            throw .interrupted
        }
    }
}
