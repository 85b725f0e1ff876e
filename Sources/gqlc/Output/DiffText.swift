import GQLCore

/// `gqlc diff`'s text for people: a summary line per model, then a line per difference; coloured (added green,
/// removed red, changed yellow) when colour is on.
struct DiffText {
    /// The colours, when colour is on.
    let palette: Palette?

    /// `Post: 1 added, 0 removed, 2 changed`, each count that is not zero in its colour.
    func summary(model: String, _ counts: DiffCounts) -> String {
        func part(_ count: Int, _ word: String, _ code: KeyPath<Palette, String>) -> String {
            let text = "\(count) \(word)"
            guard let palette, count > 0 else { return text }
            return palette.paint(text, palette[keyPath: code])
        }
        let name = palette.map { $0.paint(model, $0.header) } ?? model
        return "\(name): \(part(counts.added, "added", \.added)), \(part(counts.removed, "removed", \.removed)), "
            + "\(part(counts.changed, "changed", \.changed))\n"
    }

    /// `+ Post id=p9`, `- Post id=p1` or `~ Post id=p2: title, views`.
    func line(_ difference: RecordDifference) -> String {
        let key = BulkMessages.describe(difference.key)
        let (text, code): (String, KeyPath<Palette, String>) = switch difference.operation {
        case .added: ("+ \(difference.model) \(key)", \.added)
        case .removed: ("- \(difference.model) \(key)", \.removed)
        case .changed: ("~ \(difference.model) \(key): \(difference.fields.joined(separator: ", "))", \.changed)
        }
        guard let palette else { return text + "\n" }
        return palette.paint(text, palette[keyPath: code]) + "\n"
    }
}
