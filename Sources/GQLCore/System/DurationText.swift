/// Durations as messages and status lines write them.
public enum DurationText {
    /// Seconds to the tenth: `1.5`; a negative or not-a-number duration is `0.0`, an endless one `inf`.
    public static func seconds(_ value: Double) -> String {
        guard value.isNaN || value < Double(Int.max / 10) else { return "inf" }
        let tenths = value > 0 ? Int((value * 10).rounded()) : 0
        return "\(tenths / 10).\(tenths % 10)"
    }
}
