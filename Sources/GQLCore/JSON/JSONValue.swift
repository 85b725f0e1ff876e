import Foundation

/// A JSON value that keeps object key order and the exact text of numbers.
///
/// ```swift
/// let value = try JSONValue.parse(#"{"id": 12345678901234567890, "ok": true}"#)
/// value["id"]?.numberText   // "12345678901234567890", never rounded
/// ```
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON number stored as its literal text, so that 64-bit ids and long decimals survive a round trip.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in the source (or produced by an initializer).
    public let text: String

    /// Wraps text that the caller has already checked to be a JSON number.
    init(uncheckedText text: String) { self.text = text }

    /// Makes a number from text, or returns nil if it is not a valid JSON number literal.
    public init?(_ text: String) {
        guard JSONNumber.isValidLiteral(text) else { return nil }
        self.text = text
    }

    public init(_ value: Int) { text = String(value) }
    public init(_ value: Int64) { text = String(value) }

    /// Doubles print in their shortest round-tripping form; non-finite values are not JSON and become 0.
    public init(_ value: Double) {
        guard value.isFinite else { text = "0"; return }
        if abs(value) < 1e15, let integer = Int64(exactly: value) { text = String(integer) } else { text = "\(value)" }
    }

    public var description: String { text }

    /// The value as an Int64, if it is an integer literal in range.
    public var int64Value: Int64? { Int64(text) }
    /// The value as an Int, if it is an integer literal in range.
    public var intValue: Int? { Int(text) }
    /// The value as a Double (may lose precision).
    public var doubleValue: Double? { Double(text) }
    /// True when the literal has no fraction or exponent.
    public var isInteger: Bool { !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) }

    /// Checks the JSON number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    public static func isValidLiteral(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, isDigit(first) else { return false }
        bytes = bytes.dropFirst()
        if first != UInt8(ascii: "0") { bytes = bytes.drop(while: isDigit) }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard let d = bytes.first, isDigit(d) else { return false }
            bytes = bytes.drop(while: isDigit)
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let s = bytes.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard let d = bytes.first, isDigit(d) else { return false }
            bytes = bytes.drop(while: isDigit)
        }
        return bytes.isEmpty
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// A JSON object whose members keep the order in which they were parsed or inserted.
/// Lookups are linear, which is fastest for the small objects GraphQL returns.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }

    /// The members, in order.
    public private(set) var members: [Member]

    public init() { members = [] }
    public init(_ members: [Member]) { self.members = members }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = []
        for (key, value) in elements { self[key] = value }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    /// Gets a member's value, or sets it: an existing key keeps its place, a new key goes last, nil removes.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Appends without checking for an existing key (used by the parser; last one wins on lookup order rules).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

extension JSONValue {
    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var numberText: String? { if case .number(let n) = self { return n.text } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }

    /// A short name of the value's kind, for error messages ("a string", "an object", …).
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    public init(nilLiteral: ()) { self = .null }
}
