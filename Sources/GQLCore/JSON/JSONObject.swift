/// A JSON object whose members keep the order in which they were parsed or inserted.
///
/// Lookups are linear, which is fastest for the small objects GraphQL returns. The parser keeps every
/// member as written, duplicates included (so the writer reproduces the input); when a key occurs twice,
/// lookups and updates use the last one, as JavaScript does. Equality compares members in order.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }

    /// The members, in order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() { members = [] }
    /// An object with these members, in this order, kept as given (duplicates too).
    public init(_ members: [Member]) { self.members = members }
    /// An object from a literal; a repeated key keeps its first place and its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = []
        members.reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// Gets a member's value, or sets it: an existing key keeps its place, a new key goes last,
    /// and nil removes every member with that key.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = members.lastIndex(where: { $0.key == key }) else { return nil }
            return members[index].value
        }
        set {
            if let newValue {
                if let index = members.lastIndex(where: { $0.key == key }) {
                    members[index].value = newValue
                } else {
                    members.append(Member(key: key, value: newValue))
                }
            } else {
                members.removeAll { $0.key == key }
            }
        }
    }

    /// Reserves room for `count` members.
    public mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// Compares members in order, without recursion (see `JSONValue.==`).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        JSONValue.object(lhs) == JSONValue.object(rhs)
    }
}

extension JSONObject.Member {
    /// Compares key and value, without recursion (see `JSONValue.==`).
    public static func == (lhs: JSONObject.Member, rhs: JSONObject.Member) -> Bool {
        lhs.key == rhs.key && lhs.value == rhs.value
    }
}
