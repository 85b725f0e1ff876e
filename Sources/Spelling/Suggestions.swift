/// "Did you mean …?" suggestions for mistyped names: commands, options, fields, models.
public enum Suggestions {
    /// The candidate closest to `input` by edit distance (case-insensitive), if it is close enough
    /// to be a plausible typo: at most a third of the longer name's length, and at least 1. Of equally
    /// close candidates the alphabetically first wins, so that the answer never depends on the order of
    /// the candidates (a dictionary's keys come in a different order in every process).
    public static func closest(to input: String, in candidates: some Sequence<String>) -> String? {
        let needle = Array(input.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(needle, Array(candidate.lowercased().unicodeScalars))
            let allowed = max(1, max(needle.count, candidate.count) / 3)
            guard distance <= allowed else { continue }
            if let best, (best.distance, best.name) <= (distance, candidate) { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// `"; did you mean 'x'?"` when there is a close candidate, else the empty string.
    public static func didYouMean(_ input: String, in candidates: some Sequence<String>) -> String {
        guard let match = closest(to: input, in: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// Damerau–Levenshtein distance (optimal string alignment): a swap of two neighbours costs 1.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
