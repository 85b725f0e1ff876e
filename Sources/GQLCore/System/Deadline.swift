#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point on the monotonic clock, for deadlines that wall-clock changes do not move.
struct Deadline: Sendable {
    private let nanoseconds: UInt64
    private let start: UInt64

    /// `seconds` from now.
    static func after(_ seconds: Double) -> Deadline {
        let now = currentNanoseconds()
        return Deadline(nanoseconds: now &+ UInt64(max(0, seconds) * 1e9), start: now)
    }

    /// Milliseconds left, rounded up; zero or less once passed.
    var millisecondsFromNow: Int64 {
        (Int64(bitPattern: nanoseconds) - Int64(bitPattern: Self.currentNanoseconds()) + 999_999) / 1_000_000
    }

    /// The length of the whole wait, for messages.
    var secondsSinceStart: Double { Double(nanoseconds &- start) / 1e9 }

    private static func currentNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
