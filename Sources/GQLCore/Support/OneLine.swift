/// What ``Swift/String/oneLine(lineBreaks:cut:)`` does with line breaks.
public enum LineBreakStyle: Sendable, Equatable {
    /// Shown as escapes (`\n`, `\u{2028}`): the text keeps all its content (user input, a server's reply).
    case escaped
    /// Runs of line breaks become one space (a message that wraps).
    case spaces
    /// Every run of whitespace, line breaks included, becomes one space (an excerpt of a body).
    case collapsed
}

/// How ``Swift/String/oneLine(lineBreaks:cut:)`` shortens a long text, in characters.
public enum OneLineCut: Sendable, Equatable {
    /// Kept whole.
    case none
    /// The first `limit` characters and `…`.
    case end(Int)
    /// Texts over `maximum` characters keep their start (3/5 of it: what was wrong) and end (3/10: where, and the
    /// hint), and say how many characters were left out.
    case middle(Int)
}

extension String {
    /// The text made safe to print on one line of a terminal: line breaks handled as `lineBreaks` says, then
    /// cut as `cut` says, and control characters (but tab) shown as escapes (`\u{1B}`), so that a server's
    /// message cannot drive the user's terminal. The one helper for every single-line message.
    public func oneLine(lineBreaks: LineBreakStyle = .escaped, cut: OneLineCut = .none) -> String {
        var text = self
        if lineBreaks == .collapsed { text = text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        switch cut {
        case .none: break
        case .end(let limit): if text.count > limit { text = String(text.prefix(limit)) + "…" }
        case .middle(let maximum): text = text.keepingEnds(maximum: maximum)
        }
        if lineBreaks == .spaces, text.contains(where: \.isNewline) {
            text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return text.escapingUnprintable
    }

    /// The text with its line breaks shown as escapes (`\n`, `\u{2028}`), so that an error message quoting
    /// user input or a server's reply stays on one line.
    public var escapingLineBreaks: String { oneLine() }

    /// Decides and cuts by the same unit, characters, so a message in any script is either whole or cut.
    private func keepingEnds(maximum: Int) -> String {
        guard utf8.count > maximum else { return self }  // fewer bytes than the limit: fewer characters too
        let count = self.count
        guard count > maximum else { return self }
        let (head, tail) = (maximum * 3 / 5, maximum * 3 / 10)
        return "\(prefix(head))… (\(count - head - tail) characters omitted) …\(suffix(tail))"
    }

    private var escapingUnprintable: String {
        guard unicodeScalars.contains(where: isUnprintable) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if isUnprintable(scalar) {
                result.append(contentsOf: scalar.escaped(asASCII: true).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

/// Control characters but tab, and the line and paragraph separators.
private func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\t" { return false }
    return scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029
}
