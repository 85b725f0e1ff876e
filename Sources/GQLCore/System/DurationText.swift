/// Durations as messages and status lines write them.
public enum DurationText {
    /// Seconds to the tenth: `1.5`; a negative duration is `0.0`.
    public static func seconds(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
