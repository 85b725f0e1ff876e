/// The text of a comparison of two sets of records (``RecordDifference``s), for people: a summary line per model,
/// then a line per difference; coloured (added green, removed red, changed yellow) when colour is on.
public struct DiffText: Sendable {
    /// The colours, when colour is on.
    public let palette: Palette?

    /// Text coloured with `palette`, or plain when it is nil.
    public init(palette: Palette?) { self.palette = palette }

    /// `Post: 1 added, 0 removed, 2 changed`, each count that is not zero in its colour.
    public func summary(model: String, _ counts: DiffCounts) -> String {
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
    public func line(_ difference: RecordDifference) -> String {
        let key = difference.key.keyText
        let (text, code): (String, KeyPath<Palette, String>) = switch difference.operation {
        case .added: ("+ \(difference.model) \(key)", \.added)
        case .removed: ("- \(difference.model) \(key)", \.removed)
        case .changed: ("~ \(difference.model) \(key): \(difference.fields.joined(separator: ", "))", \.changed)
        }
        guard let palette else { return text + "\n" }
        return palette.paint(text, palette[keyPath: code]) + "\n"
    }
}

extension JSONObject {
    /// A record's key as people read it: `id=p1`, `sku=A-1, warehouseId=w1` (strings unquoted).
    public var keyText: String {
        members.map { "\($0.key)=\($0.value.stringValue ?? $0.value.serialized(.compact))" }.joined(separator: ", ")
    }
}
