/// ASCII bytes the parser looks for.
enum JSONByte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let newline = UInt8(ascii: "\n")
}

/// A JSON parser that never recurses. Open arrays and objects live on an explicit stack, and their
/// finished elements wait on scratch stacks until the container closes, so each container is
/// allocated once, at its final size. Strings, numbers and literals are in JSONParser+Scalars.swift.
struct JSONParser: ~Copyable {
    /// The input. Reads through it are bounds-checked in debug builds only, so every read is guarded.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The start of `bytes`, for reading a word at a time.
    let base: UnsafePointer<UInt8>
    /// The next byte to read.
    var index = 0
    /// Decoded bytes of the string being read, when it has escapes.
    var scratch: [UInt8] = []

    /// An array or object that has been opened and not yet closed.
    private struct OpenContainer {
        let isObject: Bool
        /// Where this container's elements (or members) start on its pending stack.
        let firstPending: Int
    }

    private var open: [OpenContainer] = []
    private var pendingElements = JSONPendingStack<JSONValue>()
    /// Members of open objects; the last one's value is a placeholder while its value is parsed.
    private var pendingMembers = JSONPendingStack<JSONObject.Member>()

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.bytes = UnsafeBufferPointer(start: base, count: count)
    }

    /// Parses the whole input as one JSON value, with only whitespace around it.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipByteOrderMark()
        let value = try parseValueTree()
        skipWhitespace()
        guard index == bytes.count else { throw unexpected(expecting: "the end of the input after the JSON value") }
        return value
    }

    // MARK: Structure

    /// Parses one value and everything nested in it.
    private mutating func parseValueTree() throws(JSONParseError) -> JSONValue {
        var value: JSONValue
        nextValue: while true {
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(expecting: "a value") }
            switch bytes[index] {
            case JSONByte.openBrace:
                try checkDepth()
                index += 1
                skipWhitespace()
                if peek() == JSONByte.closeBrace {
                    index += 1
                    value = .object(JSONObject())
                } else {
                    open.append(OpenContainer(isObject: true, firstPending: pendingMembers.count))
                    try parseKey()
                    continue nextValue
                }
            case JSONByte.openBracket:
                try checkDepth()
                index += 1
                skipWhitespace()
                if peek() == JSONByte.closeBracket {
                    index += 1
                    value = .array([])
                } else {
                    open.append(OpenContainer(isObject: false, firstPending: pendingElements.count))
                    continue nextValue
                }
            case JSONByte.quote: value = .string(try parseString())
            case JSONByte.minus, JSONByte.zero...JSONByte.nine: value = .number(try parseNumber())
            case UInt8(ascii: "t"): try expectLiteral("true"); value = .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); value = .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); value = .null
            default: throw unexpected(expecting: "a value")
            }
            // `value` is complete: give it to the innermost open container, and close those that end here.
            while let container = open.last {
                skipWhitespace()
                let next = peek()
                if container.isObject {
                    pendingMembers.updateTop { $0.value = value }
                    if next == JSONByte.comma {
                        index += 1
                        try parseKey()
                        continue nextValue
                    }
                    guard next == JSONByte.closeBrace else { throw unexpected(expecting: "',' or '}'") }
                    value = .object(JSONObject(pendingMembers.popAll(from: container.firstPending)))
                } else {
                    pendingElements.push(value)
                    if next == JSONByte.comma {
                        index += 1
                        continue nextValue
                    }
                    guard next == JSONByte.closeBracket else { throw unexpected(expecting: "',' or ']'") }
                    value = .array(pendingElements.popAll(from: container.firstPending))
                }
                index += 1
                open.removeLast()
            }
            return value
        }
    }

    /// Reads `"key" :` and pushes a member with that key, whose value is filled in when parsed.
    private mutating func parseKey() throws(JSONParseError) {
        skipWhitespace()
        guard peek() == JSONByte.quote else { throw unexpected(expecting: "a string key in double quotes") }
        let key = try parseString()
        skipWhitespace()
        guard peek() == JSONByte.colon else { throw unexpected(expecting: "':' after the key") }
        index += 1
        pendingMembers.push(JSONObject.Member(key: key, value: .null))
    }

    private func checkDepth() throws(JSONParseError) {
        guard open.count < JSONValue.maximumDepth else {
            throw error("arrays and objects are nested more than \(JSONValue.maximumDepth) levels deep")
        }
    }

    // MARK: Bytes

    @inline(__always) func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// RFC 8259 lets parsers ignore a leading byte order mark; editors on Windows write one.
    private mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }
}
