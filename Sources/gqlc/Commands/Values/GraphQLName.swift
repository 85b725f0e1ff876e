/// The GraphQL name rule (`[_A-Za-z][_0-9A-Za-z]*`), which model, field and variable names follow.
enum GraphQLName {
    /// Whether `text` is a whole, valid name.
    static func isValid(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && prefixLength(of: text) == text.utf8.count
    }

    /// The length in UTF-8 bytes of the longest name at the start of `text` (0 when it starts with none).
    static func prefixLength(of text: some StringProtocol) -> Int {
        var length = 0
        for byte in text.utf8 {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            let isDigit = byte >= 0x30 && byte <= 0x39
            guard isLetter || (isDigit && length > 0) else { break }
            length += 1
        }
        return length
    }

    /// Splits `text` into its leading name and the rest (the name is empty when there is none).
    static func split(_ text: String) -> (name: String, rest: Substring) {
        let end = text.utf8.index(text.utf8.startIndex, offsetBy: prefixLength(of: text))
        return (String(text[..<end]), text[end...])
    }
}
