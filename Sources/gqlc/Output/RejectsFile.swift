import GQLCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bulk job's `--rejects` file: each failed or unsent record's input line, whole, so that the file can be run
/// again as input. Created 0600 (it holds records). A write that fails (a full disk) is cut back to the last whole
/// line and kept in ``failure``; later lines are counted as missing, not written.
final class RejectsFile: Sendable {
    let path: String
    private let descriptor: Int32
    private struct State {
        /// Bytes of whole lines in the file.
        var size: Int64 = 0
        var failure: String?
        /// Lines that are not in the file because a write failed, and the input line of the first of them.
        var missing = 0
        var firstMissingLine = 0
    }
    private let state = Mutex(State())

    /// Creates (or empties) the file at `path`.
    init(path: String) throws(RunFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RunFailure.usage("\(BulkOptions.rejects.flagName): \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends `line` (one whole input line, `inputLine` its place, 0 when it has none); false once a write failed.
    @discardableResult func write(_ line: [UInt8], inputLine: Int) -> Bool {
        state.withLock { state in
            if state.failure == nil {
                switch FileDescriptorSink.write(line, to: descriptor) {
                case nil:
                    state.size += Int64(line.count)
                    return true
                case .closedPipe:
                    state.failure = String(cString: strerror(EPIPE))
                case .failed(let reason):
                    state.failure = reason
                }
                // Half a line would make the file unreadable as input: cut it back to the whole lines.
                _ = ftruncate(descriptor, off_t(state.size))
                _ = lseek(descriptor, off_t(state.size), SEEK_SET)
            }
            if state.missing == 0 { state.firstMissingLine = inputLine }
            state.missing += 1
            return false
        }
    }

    /// Why a write failed, with what the file lacks, or nil when every line was written.
    var failureMessage: String? {
        state.withLock { state in
            guard let failure = state.failure else { return nil }
            let lacking = state.missing == 1 ? "1 failed or unsent record is" : "\(state.missing) failed or unsent records are"
            let place = state.firstMissingLine > 0 ? ", from input line \(state.firstMissingLine) on" : ""
            return "cannot write \(BulkOptions.rejects.flagName) file \(path): \(failure); \(lacking) not in it\(place)"
        }
    }

    /// Whether a write failed.
    var failed: Bool { state.withLock { $0.failure != nil } }
}
