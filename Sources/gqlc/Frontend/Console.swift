import Foundation

/// Somewhere text is written: standard output, standard error, or a buffer in tests.
protocol TextSink: Sendable {
    func write(_ text: String)
}

/// The streams a run writes to, injected so that tests can capture them.
struct Console: Sendable {
    /// Results.
    let output: any TextSink
    /// Errors, warnings and `--verbose` traces.
    let error: any TextSink
    /// Whether `output` is a terminal, which makes pretty JSON the default.
    let outputIsTerminal: Bool

    /// The process's standard output and standard error.
    static func standard() -> Console {
        Console(
            output: FileDescriptorSink(handle: .standardOutput), error: FileDescriptorSink(handle: .standardError),
            outputIsTerminal: isatty(STDOUT_FILENO) == 1)
    }
}

/// Writes straight to a file descriptor, unbuffered.
struct FileDescriptorSink: TextSink {
    let handle: FileHandle

    func write(_ text: String) {
        handle.write(Data(text.utf8))
    }
}
