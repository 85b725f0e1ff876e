#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment in UTC, as seconds since 1970-01-01T00:00:00Z, with the calendar arithmetic gqlc needs
/// (SigV4's `20150830T123600Z`, HTTP dates) done by hand, without a locale or time zone database.
///
/// ```swift
/// Timestamp(secondsSince1970: 1_440_938_160).compactUTC   // "20150830T123600Z"
/// ```
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Seconds since the Unix epoch; negative before it.
    public var secondsSince1970: Double

    /// Makes a value from seconds since the Unix epoch.
    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The UTC calendar date and time given, in the proleptic Gregorian calendar; nil when a part is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        self.init(secondsSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// The system's current time.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    /// Seconds from `other` to this moment (negative when `other` is later).
    public func seconds(since other: Timestamp) -> Double { secondsSince1970 - other.secondsSince1970 }

    /// The moment `seconds` later (earlier when negative).
    public func adding(seconds: Double) -> Timestamp { Timestamp(secondsSince1970: secondsSince1970 + seconds) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// `YYYYMMDD'T'HHMMSS'Z'`, whole seconds rounded down: SigV4's `x-amz-date`.
    public var compactUTC: String {
        let parts = civil
        return Self.pad(parts.year, 4) + Self.pad(parts.month, 2) + Self.pad(parts.day, 2) + "T"
            + Self.pad(parts.hour, 2) + Self.pad(parts.minute, 2) + Self.pad(parts.second, 2) + "Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`: ISO 8601 in UTC, to the millisecond (as AppSync writes `AWSDateTime`).
    public var isoUTC: String {
        // Whole milliseconds first, so that 1795730740.508 (0.50799… in binary) prints .508.
        let total = Int((secondsSince1970 * 1000).rounded())
        let millis = ((total % 1000) + 1000) % 1000
        let whole = Timestamp(secondsSince1970: Double((total - millis) / 1000))
        return whole.dateUTC + "T" + whole.clockUTC + "." + Self.pad(millis, 3) + "Z"
    }

    /// `YYYY-MM-DD'T'HH:MM:SS'Z'` (ISO 8601, UTC, whole seconds rounded down), as AWSDateTime and manifests write it.
    public var iso8601UTC: String { dateUTC + "T" + clockUTC + "Z" }

    /// `YYYY-MM-DD`, the UTC date.
    public var dateUTC: String {
        let parts = civil
        return Self.pad(parts.year, 4) + "-" + Self.pad(parts.month, 2) + "-" + Self.pad(parts.day, 2)
    }

    /// `HH:MM:SS`, the UTC time of day, whole seconds rounded down.
    public var clockUTC: String {
        let parts = civil
        return Self.pad(parts.hour, 2) + ":" + Self.pad(parts.minute, 2) + ":" + Self.pad(parts.second, 2)
    }

    /// The UTC calendar parts of this moment, whole seconds rounded down.
    public var civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = Int(secondsSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil_from_days).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Blocking waits for the calling thread.
public enum ThreadSleep {
    /// Sleeps about `seconds` (nothing for zero or less), resuming after signals until the time is up.
    public static func seconds(_ seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// A clock that only moves forward, for deadlines and durations.
public enum MonotonicTime {
    /// Seconds since an arbitrary moment (usually boot).
    public static func seconds() -> Double {
        Double(nanoseconds()) / 1e9
    }

    /// Nanoseconds since the same moment.
    public static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
