import GQLCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Somewhere output is written: standard output, standard error, or a buffer in tests.
protocol TextSink: Sendable {
    func write(_ text: String)
    /// Writes UTF-8 bytes; returns false when the reader has gone away (a closed pipe).
    @discardableResult func write(bytes: [UInt8]) -> Bool
}

extension TextSink {
    @discardableResult func write(bytes: [UInt8]) -> Bool {
        write(String(decoding: bytes, as: UTF8.self))
        return true
    }
}

/// Where `-` (standard input) is read from, injected so that tests can supply it.
protocol InputReader: Sendable {
    /// Everything up to the end of input.
    func readAll() throws(FileReadError) -> [UInt8]
    /// Whether it is a terminal (nobody piped anything in).
    var isTerminal: Bool { get }
}

extension InputReader {
    var isTerminal: Bool { false }
}

/// The streams a run uses, injected so that tests can capture them.
struct Console: Sendable {
    /// Results.
    let output: any TextSink
    /// Errors, warnings and `--verbose` traces.
    let error: any TextSink
    /// Whether `output` is a terminal, which makes pretty JSON the default.
    let outputIsTerminal: Bool
    /// Standard input, for `-` file arguments.
    var input: any InputReader = StandardInput()
    /// Whether `error` is a terminal, where progress lines are drawn.
    var errorIsTerminal = false
    /// The terminal's width in columns for tables (nil when output is not a terminal and `COLUMNS` is unset).
    var width: Int? = nil

    /// The process's standard output and standard error.
    static func standard() -> Console {
        Console(
            output: FileDescriptorSink(descriptor: STDOUT_FILENO), error: FileDescriptorSink(descriptor: STDERR_FILENO),
            outputIsTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
            width: terminalWidth())
    }

    /// The width of the terminal on standard output, else `COLUMNS`, else nil.
    private static func terminalWidth() -> Int? {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        guard let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text), columns > 0 else { return nil }
        return columns
    }
}

/// Writes straight to a file descriptor: one system call per write, so callers write whole pages.
struct FileDescriptorSink: TextSink {
    let descriptor: Int32

    func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    @discardableResult func write(bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return true }
                let written = writeBytes(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}

/// The process's standard input.
struct StandardInput: InputReader {
    func readAll() throws(FileReadError) -> [UInt8] {
        try FileReader.bytes(descriptor: STDIN_FILENO, name: "<stdin>")
    }

    var isTerminal: Bool { isatty(STDIN_FILENO) != 0 }
}

/// The C library's `write`, which the sinks' own `write` methods hide.
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
