/// How many terminal columns text takes, for aligning and cutting table cells: a character (grapheme cluster) of
/// East Asian Width Wide or Fullwidth, or shown as an emoji, takes 2; a combining mark or a zero-width character
/// alone takes 0; anything else 1. Control characters never reach it (cells replace them).
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: String) -> Int {
        // Most cells are ASCII: one column a byte, without splitting characters.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns one character takes: its first scalar's width, or 2 when the cluster is an emoji
    /// (a scalar shown as emoji by default, or one followed by the emoji presentation selector U+FE0F).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return 1 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) { return 2 }
        return width(of: first)
    }

    /// `text` cut to at most `columns` columns, whole characters only, ending with `…` when anything was cut.
    public static func prefix(_ text: String, columns: Int) -> String {
        guard of(text) > columns else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            kept.append(character)
            used += width
        }
        return columns > 0 ? kept + "…" : ""
    }

    /// One scalar's width outside an emoji cluster.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let value = scalar.value
        if value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 }
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// The Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt, merged where adjacent, without
    /// the emoji (``of(_:)-(Character)`` takes those from the scalar's emoji presentation property).
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x303E,  // CJK radicals, Kangxi, symbols, punctuation
        0x3041...0x3096, 0x3099...0x30FF,  // Hiragana, Katakana
        0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3, 0x31EF...0x321E, 0x3220...0x3247,  // Bopomofo, Hangul compatibility, Kanbun, strokes
        0x3250...0x4DBF,  // enclosed CJK, CJK compatibility, CJK Unified Ideographs extension A
        0x4E00...0xA48C,  // CJK Unified Ideographs, Yi syllables
        0xA490...0xA4C6,  // Yi radicals
        0xA960...0xA97C,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B,  // vertical and small forms
        0xFF01...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1,  // ideographic symbols
        0x17000...0x18CD5, 0x18D00...0x18D08,  // Tangut, Khitan
        0x1AFF0...0x1B2FB,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,  // enclosed ideographs
        0x20000...0x2FFFD, 0x30000...0x3FFFD,  // CJK Unified Ideographs extensions B and later
    ]
}
