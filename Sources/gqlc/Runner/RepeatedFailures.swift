import GQLCore
import Synchronization

/// A bulk job's items refused before sending with the same message: the first is reported as it happens, the
/// rest once at the end, with their count and lines, so that one mistake made on every line is said once.
final class RepeatedFailures: Sendable {
    private struct Repeats {
        var count = 0
        /// Lines of the repeats (0 for records a listing found), as ranges, up to ``RepeatedFailures/shownRanges``.
        var ranges: [ClosedRange<Int>] = []
        var unlisted = false
    }

    /// How many line ranges the closing report lists.
    static let shownRanges = 8
    private let state = Mutex<(order: [String], repeats: [String: Repeats])>(([], [:]))

    /// Whether `message` is reported now: true the first time; later, the item's line is kept for ``report``.
    func firstTime(_ message: String, line: Int) -> Bool {
        state.withLock { state in
            guard var repeats = state.repeats[message] else {
                state.order.append(message)
                state.repeats[message] = Repeats()
                return true
            }
            repeats.count += 1
            if line > 0, let last = repeats.ranges.last, last.upperBound == line - 1 {
                repeats.ranges[repeats.ranges.count - 1] = last.lowerBound...line
            } else if line > 0, repeats.ranges.count < Self.shownRanges {
                repeats.ranges.append(line...line)
            } else {
                repeats.unlisted = true
            }
            state.repeats[message] = repeats
            return false
        }
    }

    /// One line per repeated message: `posts.ndjson: the same error on 499 more lines (2-500): MESSAGE`.
    func report(inputName: String) -> [String] {
        state.withLock { state in
            state.order.compactMap { message -> String? in
                guard let repeats = state.repeats[message], repeats.count > 0 else { return nil }
                let noun = inputName.isEmpty ? "record" : "line"
                var lines = repeats.ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
                if repeats.unlisted && !lines.isEmpty { lines.append("…") }
                let which = lines.isEmpty ? "" : " (" + lines.joined(separator: ", ") + ")"
                let place = inputName.isEmpty ? "" : "\(inputName): "
                return "\(place)the same error on \(repeats.count) more \(noun)\(repeats.count == 1 ? "" : "s")\(which): \(message)"
            }
        }
    }
}
