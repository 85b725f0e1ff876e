import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a write failed.
public enum WriteFailure: Sendable, Equatable {
    /// The reader went away (EPIPE): `gqlc list | head`.
    case closedPipe
    /// Any other error (a full disk, an I/O error), as the system words it.
    case failed(String)
}

/// Somewhere output is written: standard output, standard error, or a buffer in tests. The writers write to it as an
/// ``OutputSink``; what it adds is how standard output's failures are deferred for a bulk job.
public protocol TextSink: OutputSink {
    /// Makes a failed write return false and be kept in ``failure``, where it would otherwise end the process
    /// (``StandardOutputSink``): for a job that must account for its records before it stops.
    func deferFailures()
    /// The first write that failed since ``deferFailures()``.
    var failure: WriteFailure? { get }
}

extension TextSink {
    public func deferFailures() {}
    public var failure: WriteFailure? { nil }
}

/// Where `-` (standard input) is read from, injected so that tests can supply it.
public protocol InputReader: Sendable {
    /// Everything up to the end of input.
    func readAll() throws(FileReadError) -> [UInt8]
    /// Whether it is a terminal (nobody piped anything in).
    var isTerminal: Bool { get }
}

extension InputReader {
    public var isTerminal: Bool { false }
}

/// The streams a run uses, injected so that tests can capture them.
public struct Console: Sendable {
    /// Results.
    public let output: any TextSink
    /// Errors, warnings and `--verbose` traces.
    public let error: any TextSink
    /// Whether `output` is a terminal, which makes pretty JSON the default.
    public let outputIsTerminal: Bool
    /// Standard input, for `-` file arguments.
    public var input: any InputReader
    /// Whether `error` is a terminal, where progress lines are drawn.
    public var errorIsTerminal = false
    /// The terminal's width in columns for tables (nil when output is not a terminal and `COLUMNS` is unset).
    public var width: Int? = nil
    /// Whether `output` is a pipe or a socket, whose reader may write to the terminal that a progress line is on.
    public var outputMaySharePipe = false

    /// Streams given by the caller; the rest as for a run off any terminal.
    public init(
        output: any TextSink, error: any TextSink, outputIsTerminal: Bool, input: any InputReader = StandardInput(),
        errorIsTerminal: Bool = false, width: Int? = nil, outputMaySharePipe: Bool = false
    ) {
        self.output = output
        self.error = error
        self.outputIsTerminal = outputIsTerminal
        self.input = input
        self.errorIsTerminal = errorIsTerminal
        self.width = width
        self.outputMaySharePipe = outputMaySharePipe
    }

    /// The process's standard output and standard error; a failed write of standard output calls `onOutputFailure`
    /// (which a program makes end the process, see ``StandardOutputSink``).
    public static func standard(onOutputFailure: @escaping @Sendable (WriteFailure) -> Void) -> Console {
        Console(
            output: StandardOutputSink(onFailure: onOutputFailure), error: FileDescriptorSink(descriptor: STDERR_FILENO),
            outputIsTerminal: StandardStreams.isTerminal(STDOUT_FILENO), errorIsTerminal: StandardStreams.isTerminal(STDERR_FILENO),
            width: StandardStreams.outputWidth(), outputMaySharePipe: StandardStreams.isPipe(STDOUT_FILENO))
    }
}

/// Writes straight to a file descriptor: one system call per write, so callers write whole batches of lines.
/// A failed write returns false (standard error's failures have nowhere to be told).
public struct FileDescriptorSink: TextSink {
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    @discardableResult public func write(bytes: [UInt8]) -> Bool {
        Self.write(bytes, to: descriptor) == nil
    }

    /// Writes all of `bytes` (retrying short and interrupted writes); nil when done, else why not.
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> WriteFailure? {
        guard let error = FileWriter.append(bytes, to: descriptor) else { return nil }
        return error == EPIPE ? .closedPipe : .failed(String(cString: strerror(error)))
    }
}

/// Standard output, where a failed write is told at once to `onFailure`, which a program makes end the process, as
/// Unix tools do (gqlc: a closed pipe by SIGPIPE, with nothing more printed; any other error with one line on stderr).
/// Ending at the failed write is what makes every write checked, whichever command made it.
///
/// A bulk job, which must account for its records first, calls ``deferFailures()``: then a failed write returns
/// false and ``failure`` keeps the first one, and `onFailure` is not called.
public final class StandardOutputSink: TextSink {
    private let state = Mutex<(deferring: Bool, failure: WriteFailure?)>((false, nil))
    private let onFailure: @Sendable (WriteFailure) -> Void

    /// Standard output, whose failed writes (until ``deferFailures()``) go to `onFailure`.
    public init(onFailure: @escaping @Sendable (WriteFailure) -> Void) {
        self.onFailure = onFailure
    }

    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    @discardableResult public func write(bytes: [UInt8]) -> Bool {
        guard let failure = FileDescriptorSink.write(bytes, to: STDOUT_FILENO) else { return true }
        let deferring = state.withLock { state in
            if state.failure == nil { state.failure = failure }
            return state.deferring
        }
        if !deferring { onFailure(failure) }
        return false
    }

    public func deferFailures() { state.withLock { $0.deferring = true } }

    public var failure: WriteFailure? { state.withLock { $0.failure } }
}

/// The process's standard input.
public struct StandardInput: InputReader {
    public init() {}

    public func readAll() throws(FileReadError) -> [UInt8] {
        try FileReader.bytes(descriptor: STDIN_FILENO, name: "<stdin>")
    }

    public var isTerminal: Bool { StandardStreams.isTerminal(STDIN_FILENO) }
}

/// The three standard streams as the process was started with them: what they are connected to.
public enum StandardStreams {
    /// Occupies a closed standard stream (`gqlc list >&-`) with /dev/null opened the wrong way round, before
    /// anything else is opened: no file or connection opened later can get its number (and receive its output),
    /// and a write to a closed stdout fails (EBADF) and is reported instead of vanishing.
    public static func reserveClosed() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Whether `descriptor` is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether `descriptor` is a pipe (or FIFO) or a socket.
    public static func isPipe(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }

    /// The width of the terminal on standard output, else `COLUMNS`, else nil.
    public static func outputWidth() -> Int? {
        if isTerminal(STDOUT_FILENO), let size = TerminalSize.of(STDOUT_FILENO), size.columns > 0 { return size.columns }
        guard let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text), columns > 0 else { return nil }
        return columns
    }
}

extension WriteFailure {
    /// Why standard output could not be written, as one line: `standard output was closed`, or
    /// `cannot write standard output: No space left on device`.
    public var standardOutputReason: String {
        switch self {
        case .closedPipe: "standard output was closed"
        case .failed(let reason): "cannot write standard output: \(reason)"
        }
    }
}
