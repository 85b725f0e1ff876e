import GQLCore

/// Builds a deterministic, AppSync-style list response (`{"data":{"listPosts":{"items":[…],"nextToken":"…"}}}`)
/// whose compact JSON text is about `targetBytes` long. The same size always gives the same bytes.
struct ListResponseGenerator {
    private var random = SplitMix64(seed: 0x6771_6C63)  // "gqlc"

    /// The response value; its compact serialization is within one post of `targetBytes`.
    mutating func makeResponse(targetBytes: Int) -> JSONValue {
        var items: [JSONValue] = []
        var size = 0
        var number = 0
        while size < targetBytes {
            let post = makePost(number)
            size += post.serialized().utf8.count + 1
            items.append(post)
            number += 1
        }
        let list: JSONValue = ["items": .array(items), "nextToken": .string(makeNextToken())]
        return ["data": ["listPosts": list]]
    }

    // MARK: Posts

    private static let words = [
        "swift", "graphql", "appsync", "amplify", "model", "query", "mutation", "subscription", "resolver",
        "schema", "field", "index", "partition", "sort", "key", "token", "page", "list", "cursor", "latency",
        "café", "naïve", "résumé", "über", "Straße", "東京", "データ", "привет", "🚀", "✓",
    ]
    private static let statuses = ["DRAFT", "PUBLISHED", "ARCHIVED"]
    private static let tagPool = ["ios", "linux", "cli", "aws", "dynamodb", "json", "performance", "tutorial", "beta"]

    private mutating func makePost(_ number: Int) -> JSONValue {
        var post = JSONObject()
        post["__typename"] = "Post"
        post["id"] = .string(makeUUID())
        post["blogId"] = .string(makeUUID())
        post["title"] = .string(makeSentence(words: 3 + Int(random.next() % 6)))
        post["content"] = .string(makeContent())
        post["status"] = .string(Self.statuses[Int(random.next() % 3)])
        post["rating"] = .number(JSONNumber(Double(random.next() % 500) / 100 + 0.25))
        post["viewCount"] = .number(JSONNumber(Int(random.next() % 1_000_000)))
        post["likeCount"] = .number(JSONNumber(Int(random.next() % 10_000)))
        // A 64-bit id that a Double would round.
        post["externalId"] = .number(JSONNumber(Int64(bitPattern: random.next() | 1 << 62)))
        post["published"] = .bool(random.next() % 2 == 0)
        post["pinned"] = .bool(random.next() % 5 == 0)
        post["deletedAt"] = .null
        post["tags"] = .array((0..<Int(random.next() % 5)).map { _ in .string(Self.tagPool[Int(random.next() % 9)]) })
        post["metadata"] = [
            "wordCount": .number(JSONNumber(Int(random.next() % 5000))),
            "readingMinutes": .number(JSONNumber(Double(random.next() % 3000) / 100)),
            "source": [
                "name": .string(makeSentence(words: 2)),
                "url": .string("https://example.com/posts/\(number)?ref=feed&lang=en"),
            ],
            "coordinates": random.next() % 4 == 0 ? .null : [
                .number(JSONNumber(Double(Int(random.next() % 18_000_000)) / 100_000 - 90)),
                .number(JSONNumber(Double(Int(random.next() % 36_000_000)) / 100_000 - 180)),
            ],
        ]
        post["owner"] = .string("user-\(random.next() % 100_000)::us-east-1:\(makeUUID())")
        post["createdAt"] = .string(makeTimestamp())
        post["updatedAt"] = .string(makeTimestamp())
        post["_version"] = .number(JSONNumber(Int(random.next() % 20) + 1))
        post["_lastChangedAt"] = .number(JSONNumber(Int(1_700_000_000_000 + random.next() % 100_000_000_000)))
        post["_deleted"] = .null
        return .object(post)
    }

    /// A paragraph or two with quotes, a backslash, tabs and newlines, so the parser's escape path runs.
    private mutating func makeContent() -> String {
        var text = makeSentence(words: 20 + Int(random.next() % 60))
        if random.next() % 2 == 0 { text += "\n\nHe said \"" + makeSentence(words: 4) + "\" and left." }
        if random.next() % 4 == 0 { text += "\tPath: C:\\temp\\" + makeSentence(words: 1) }
        return text
    }

    private mutating func makeSentence(words count: Int) -> String {
        var words: [String] = []
        words.reserveCapacity(count)
        for _ in 0..<count { words.append(Self.words[Int(random.next() % UInt64(Self.words.count))]) }
        return words.joined(separator: " ")
    }

    private mutating func makeUUID() -> String {
        let high = random.next()
        let low = random.next()
        let hex = hexDigits(high, count: 16) + hexDigits(low, count: 16)
        let characters = Array(hex)
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16])
            + "-" + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }

    private mutating func makeTimestamp() -> String {
        let day = 1 + random.next() % 28
        let month = 1 + random.next() % 12
        let seconds = random.next() % 86_400
        return "2024-\(twoDigits(month))-\(twoDigits(day))T\(twoDigits(seconds / 3600)):"
            + "\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60)).\(random.next() % 900 + 100)Z"
    }

    private mutating func makeNextToken() -> String {
        var token = ""
        for _ in 0..<12 { token += hexDigits(random.next(), count: 16) }
        return token
    }

    private func hexDigits(_ value: UInt64, count: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    private func twoDigits(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A small, fast, deterministic pseudo-random generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
