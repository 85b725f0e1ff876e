#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The size of a terminal, as the system reports it.
public enum TerminalSize {
    /// The columns and rows of the terminal on `descriptor` (`TIOCGWINSZ`); nil when it is not a terminal. Either may
    /// be 0 when the terminal does not say.
    public static func of(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The size of the terminal on standard output, else 80 by 24 (a live table's frame).
    public static func standardOutputOrDefault() -> (columns: Int, rows: Int) {
        guard let size = of(STDOUT_FILENO), size.columns > 0, size.rows > 0 else { return (80, 24) }
        return size
    }
}

/// Reads single keys from a terminal on standard input (no echo, no line buffering) until stopped; `q` calls
/// `onQuit`. Ctrl-C still sends SIGINT. The terminal's modes are restored by ``restore()``.
public final class KeyReader: Sendable {
    /// The terminal's modes before, set once here and read by ``restore()``.
    private let saved: termios
    private let active: Bool

    /// Puts standard input's terminal in single-key mode; does nothing when standard input is not a terminal.
    public init() {
        var saved = termios()
        active = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &saved) == 0
        self.saved = saved
        guard active else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// Waits for keys on this thread, ticking every half second, until `stop` is set; `q` calls `onQuit`.
    public func run(stop: CancellationFlag, onTick: () -> Void, onQuit: () -> Void) {
        while !stop.isCancelled {
            guard active else {
                if stop.wait(seconds: 0.5) { return }
                onTick()
                continue
            }
            var entry = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 500)
            if ready > 0 {
                var byte: UInt8 = 0
                if read(STDIN_FILENO, &byte, 1) == 1, byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") {
                    onQuit()
                    return
                }
            }
            onTick()
        }
    }

    /// Restores the terminal's modes as they were.
    public func restore() {
        guard active else { return }
        var saved = self.saved
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
