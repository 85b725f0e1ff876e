/// A place in a listing: the page that `token` fetches (nil: the first page), asked for with `pageSize`,
/// of whose items the first `skip` were already delivered.
///
/// A server token can only point at the start of a page. A listing cut by `--limit` in the middle of a page
/// resumes by fetching that page again, with the same page size (and filter) so that it holds the same items,
/// and dropping the `skip` items already delivered.
public struct ListPosition: Sendable, Equatable {
    /// The `nextToken` that fetches the page; nil for the first page.
    public var token: String?
    /// How many of the page's items were already delivered.
    public var skip: Int
    /// The `limit` the page is asked for with.
    public var pageSize: Int

    public init(token: String?, skip: Int = 0, pageSize: Int) {
        self.token = token
        self.skip = max(0, skip)
        self.pageSize = max(1, pageSize)
    }
}

/// The `next token:` gqlc prints and `--next-token` reads back: the server's own token when the listing stopped
/// at a page boundary, else gqlc's resume point inside a page.
///
/// gqlc's form is `gqlc1:` followed by base64url (unpadded) of the compact JSON object
/// `{"l": listing, "p": page size, "s": items to skip, "t": server token or null}`. `l` identifies the listing
/// (``ListRequests/listingKey``: root field, filter and key arguments), so that such a token, whose `skip`
/// only means something on the very same page, cannot silently drop items of another listing.
public enum ResumeToken {
    /// What starts gqlc's own tokens. `:` never occurs in base64 or base64url server tokens.
    public static let prefix = "gqlc1:"

    /// The token for `position` in the listing `listing`: the server token as it is when nothing of its page
    /// was delivered yet, else gqlc's form. Nil for a position at the first page with nothing delivered.
    public static func text(for position: ListPosition, listing: String) -> String? {
        if position.skip == 0 { return position.token }
        let payload: JSONValue = [
            "l": .string(listing),
            "p": .number(JSONNumber(position.pageSize)),
            "s": .number(JSONNumber(position.skip)),
            "t": position.token.map { .string($0) } ?? .null,
        ]
        return prefix + Base64.encode(Array(payload.serialized(.compact).utf8), alphabet: .url, padded: false)
    }

    /// Where a listing starts for the token `text`: a server token starts at its page with `pageSize`;
    /// gqlc's form gives the page, the page size it was read with and the items to skip.
    /// - Throws: when gqlc's form is damaged, or was printed by a listing other than `listing`.
    public static func position(_ text: String, listing: String, pageSize: Int) throws(ResumeTokenError) -> ListPosition {
        guard text.hasPrefix(prefix) else { return ListPosition(token: text, pageSize: pageSize) }
        guard let bytes = Base64.decode(String(text.dropFirst(prefix.count)), alphabet: .url, padded: false),
              let payload = try? JSONValue.parse(bytes),
              let key = payload["l"]?.stringValue,
              let size = payload["p"]?.numberText.flatMap({ Int($0) }), size >= 1,
              let skip = payload["s"]?.numberText.flatMap({ Int($0) }), skip >= 1
        else { throw .malformed }
        let token: String?
        switch payload["t"] {
        case .string(let value)? where !value.isEmpty: token = value
        case .null?: token = nil
        default: throw .malformed
        }
        guard key == listing else { throw .otherListing }
        return ListPosition(token: token, skip: skip, pageSize: size)
    }
}

/// Why a `gqlc1:` token cannot be used.
public enum ResumeTokenError: Error, Equatable, CustomStringConvertible {
    /// It is cut short or changed.
    case malformed
    /// It was printed by a listing of another model, index, filter or key condition.
    case otherListing

    public var description: String {
        switch self {
        case .malformed:
            return "the token starts with '\(ResumeToken.prefix)' but is not one gqlc printed; it may have been cut short"
        case .otherListing:
            return "the token resumes a different listing (another model, index or filter); "
                + "it only resumes the listing that printed it"
        }
    }
}
