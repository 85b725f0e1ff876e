extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (line breaks are kept).
    public var trimmingSpaces: String { trimmed { $0.isWhitespace && !$0.isNewline } }

    /// The text without leading and trailing whitespace, line breaks included.
    public var trimmingWhitespace: String { trimmed(\.isWhitespace) }

    private func trimmed(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
