/// A point on the monotonic clock, for deadlines that wall-clock changes do not move.
struct Deadline: Sendable {
    private let nanoseconds: UInt64
    private let start: UInt64

    /// The longest wait a deadline holds: 100 years. Longer ones (a server's number, a huge option) saturate to it,
    /// so the arithmetic below never overflows.
    static let longestSeconds: Double = 100 * 365 * 86_400

    /// `seconds` from now; a negative or NaN wait is now, an infinite or huge one ``longestSeconds``.
    static func after(_ seconds: Double) -> Deadline {
        let now = MonotonicTime.nanoseconds()
        let bounded = seconds.isNaN ? 0 : min(max(0, seconds), longestSeconds)
        let (sum, overflow) = now.addingReportingOverflow(UInt64(bounded * 1e9))
        return Deadline(nanoseconds: overflow || sum > UInt64(Int64.max) ? UInt64(Int64.max) : sum, start: now)
    }

    /// Milliseconds left, rounded up; zero or less once passed.
    var millisecondsFromNow: Int64 {
        let now = MonotonicTime.nanoseconds()
        guard nanoseconds > now else { return -Int64((now - nanoseconds) / 1_000_000) }
        return Int64((nanoseconds - now) / 1_000_000) + ((nanoseconds - now) % 1_000_000 == 0 ? 0 : 1)
    }

    /// The length of the whole wait, for messages.
    var secondsSinceStart: Double { Double(nanoseconds &- start) / 1e9 }
}
