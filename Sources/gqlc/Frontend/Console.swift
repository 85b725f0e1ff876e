import GQLCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Somewhere output is written: standard output, standard error, or a buffer in tests. The core's writers write to
/// it as an ``OutputSink``; what it adds is how standard output's failures are deferred for a bulk job.
protocol TextSink: OutputSink {
    /// Makes a failed write return false and be kept in ``failure``, where it would otherwise end the process
    /// (``StandardOutputSink``): for a job that must account for its records before it stops.
    func deferFailures()
    /// The first write that failed since ``deferFailures()``.
    var failure: WriteFailure? { get }
}

extension TextSink {
    func deferFailures() {}
    var failure: WriteFailure? { nil }
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
    /// Whether `output` is a pipe or a socket, whose reader may write to the terminal that a progress line is on.
    var outputMaySharePipe = false

    /// The process's standard output and standard error.
    static func standard() -> Console {
        Console(
            output: StandardOutputSink(), error: FileDescriptorSink(descriptor: STDERR_FILENO),
            outputIsTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
            width: terminalWidth(), outputMaySharePipe: isPipe(STDOUT_FILENO))
    }

    /// The width of the terminal on standard output, else `COLUMNS`, else nil.
    private static func terminalWidth() -> Int? {
        if isatty(STDOUT_FILENO) == 1, let size = TerminalSize.of(STDOUT_FILENO), size.columns > 0 { return size.columns }
        guard let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text), columns > 0 else { return nil }
        return columns
    }

    /// Whether `descriptor` is a pipe (or FIFO) or a socket.
    private static func isPipe(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }
}

/// Writes straight to a file descriptor: one system call per write, so callers write whole pages.
/// A failed write returns false (standard error's failures have nowhere to be told).
struct FileDescriptorSink: TextSink {
    let descriptor: Int32

    func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    @discardableResult func write(bytes: [UInt8]) -> Bool {
        Self.write(bytes, to: descriptor) == nil
    }

    /// Writes all of `bytes` (retrying short and interrupted writes); nil when done, else why not.
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> WriteFailure? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = writeBytes(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno == EPIPE ? .closedPipe : .failed(String(cString: strerror(errno)))
                }
                offset += written
            }
            return nil
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
