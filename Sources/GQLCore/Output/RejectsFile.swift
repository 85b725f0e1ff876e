import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bulk job's rejects file: each failed or unsent record's input line, whole, so that the file can be run again as
/// input. Created 0600 (it holds records). A write that fails (a full disk) is cut back to the last whole line and
/// kept in ``failure``; later lines are counted as missing, not written.
public final class RejectsFile: Sendable {
    /// Why the file lacks lines: the first failed write, and the lines it lacks.
    public struct Failure: Sendable, Equatable {
        /// The file.
        public let path: String
        /// Why the write failed, as the system says it.
        public let reason: String
        /// Lines that are not in the file because a write failed.
        public let missing: Int
        /// The input line of the first missing line (0 when it has none).
        public let firstMissingLine: Int

        /// `cannot write LABEL file PATH: reason; 2 failed or unsent records are not in it, from input line 7 on`, the
        /// file named by `label` as the caller calls it.
        public func message(label: String) -> String {
            let lacking = missing == 1 ? "1 failed or unsent record is" : "\(missing) failed or unsent records are"
            let place = firstMissingLine > 0 ? ", from input line \(firstMissingLine) on" : ""
            return "cannot write \(label) file \(path): \(reason); \(lacking) not in it\(place)"
        }
    }

    /// The file written.
    public let path: String
    private let descriptor: Int32
    private struct State {
        /// Bytes of whole lines in the file.
        var size: Int64 = 0
        var reason: String?
        var missing = 0
        var firstMissingLine = 0
    }
    private let state = Mutex(State())

    /// Opens the file at `path`, creating it when missing. What it holds stays until the job starts (``start()``), so
    /// that a job that stops before sending anything leaves an earlier run's rejects as they were.
    public init(path: String) throws(FileWriter.WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileWriter.WriteError(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The job starts: the file is emptied (a regular file; a pipe or device has nothing to empty), to hold this run's
    /// lines only.
    public func start() {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        _ = ftruncate(descriptor, 0)
    }

    /// Appends `line` (one whole input line, `inputLine` its place, 0 when it has none); false once a write failed.
    @discardableResult public func write(_ line: [UInt8], inputLine: Int) -> Bool {
        state.withLock { state in
            if state.reason == nil {
                guard let code = FileWriter.append(line, to: descriptor) else {
                    state.size += Int64(line.count)
                    return true
                }
                state.reason = String(cString: strerror(code))
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
    public var failure: Failure? {
        state.withLock { state in
            state.reason.map { Failure(path: path, reason: $0, missing: state.missing, firstMissingLine: state.firstMissingLine) }
        }
    }
}
