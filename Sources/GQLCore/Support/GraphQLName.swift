/// The GraphQL name rule, `[_A-Za-z][_0-9A-Za-z]*`, which type, field, variable and operation names follow.
public enum GraphQLName {
    /// True when all of `text` is one name.
    ///
    /// ```swift
    /// GraphQLName.isValid("heroName")   // true
    /// GraphQLName.isValid("2fast")      // false
    /// ```
    public static func isValid(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && prefixLength(of: text) == text.utf8.count
    }

    /// The longest name at the start of `text`, possibly empty: `rating` in `rating>=4`.
    public static func prefix(of text: String) -> String {
        String(decoding: text.utf8.prefix(prefixLength(of: text)), as: UTF8.self)
    }

    /// The leading name of `text` and what follows it.
    public static func split(_ text: String) -> (name: String, rest: Substring) {
        let end = text.utf8.index(text.utf8.startIndex, offsetBy: prefixLength(of: text))
        return (String(text[..<end]), text[end...])
    }

    /// Why `text` is refused where a schema should hold a name: `"my field" is not a GraphQL name (…)`. Quoted
    /// as JSON would, so control characters show as escapes.
    public static func notANameMessage(_ text: String) -> String {
        "\(JSONValue.string(text).serialized()) is not a GraphQL name (letters, digits and _, not starting with a digit); "
            + "gqlc refuses it rather than write it into a request"
    }

    /// True when `text` is a DynamoDB index name (`gsi-Post.comments`): letters, digits, `_`, `-` and `.`. An
    /// index's name is the table's, not GraphQL's; gqlc writes it into a type name only when it is also a name.
    public static func isIndexName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ASCII.isNameContinue($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// Why `text` is refused as an index name.
    public static func notAnIndexNameMessage(_ text: String) -> String {
        "\(JSONValue.string(text).serialized()) is not an index name (letters, digits, _, - and .)"
    }

    /// The length in UTF-8 bytes of the longest name at the start of `text`.
    static func prefixLength(of text: some StringProtocol) -> Int {
        var length = 0
        for byte in text.utf8 {
            guard length == 0 ? ASCII.isNameStart(byte) : ASCII.isNameContinue(byte) else { break }
            length += 1
        }
        return length
    }
}
