extension String {
    /// The text with its line breaks shown as escapes (`\n`, `\u{2028}`), so that an error message quoting
    /// user input or a server's reply stays on one line.
    public var escapingLineBreaks: String {
        guard unicodeScalars.contains(where: isLineBreak) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if isLineBreak(scalar) {
                result.append(contentsOf: scalar.escaped(asASCII: true).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

/// The scalars that `Character.isNewline` counts as line breaks.
private func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
}
