/// A point on the monotonic clock, for deadlines that wall-clock changes do not move.
struct Deadline: Sendable {
    private let nanoseconds: UInt64
    private let start: UInt64

    /// `seconds` from now.
    static func after(_ seconds: Double) -> Deadline {
        let now = MonotonicTime.nanoseconds()
        return Deadline(nanoseconds: now &+ UInt64(max(0, seconds) * 1e9), start: now)
    }

    /// Milliseconds left, rounded up; zero or less once passed.
    var millisecondsFromNow: Int64 {
        (Int64(bitPattern: nanoseconds) - Int64(bitPattern: MonotonicTime.nanoseconds()) + 999_999) / 1_000_000
    }

    /// The length of the whole wait, for messages.
    var secondsSinceStart: Double { Double(nanoseconds &- start) / 1e9 }
}
