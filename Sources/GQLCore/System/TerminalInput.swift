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
