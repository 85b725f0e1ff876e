/// Greedy word wrapping for help text.
public enum TextWrapping {
    /// Joins words that must stay on one line; printed as a plain space.
    public static let nonBreakingSpace = "\u{00A0}"

    /// Wraps `text` so that no line is longer than `width` (unless a single word is), prefixing the first
    /// line with `firstIndent` and later lines with `indent`. Newlines in `text` force a break.
    public static func wrap(_ text: String, width: Int, firstIndent: String = "", indent: String = "") -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = paragraph.split(separator: " ").map(String.init)
            lines += fill(words, width: width, firstIndent: lines.isEmpty ? firstIndent : indent, indent: indent)
        }
        return lines
    }

    /// Fills lines with `words` (which are kept whole and joined by single spaces).
    public static func fill(_ words: [String], width: Int, firstIndent: String, indent: String) -> [String] {
        var lines: [String] = []
        var line = firstIndent
        var lineHasWord = false
        for word in words {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line.replacing(nonBreakingSpace, with: " "))
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        let last = lineHasWord ? line : String(line.reversed().drop { $0 == " " }.reversed())
        lines.append(last.replacing(nonBreakingSpace, with: " "))
        return lines
    }

    /// Splits a usage line into words, keeping each bracketed group (`(--id VALUE | --key F=V)`) whole.
    public static func synopsisWords(_ synopsis: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in synopsis {
            switch character {
            case "(", "[": depth += 1
            case ")", "]": depth = max(0, depth - 1)
            default: break
            }
            if character == " ", depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

extension String {
    /// The text with each character that is a key of `replacements` replaced by its value (escaping for a shell or
    /// roff).
    func replacing(characters replacements: [Character: String]) -> String {
        var out = ""
        for character in self {
            if let replacement = replacements[character] { out += replacement } else { out.append(character) }
        }
        return out
    }
}
