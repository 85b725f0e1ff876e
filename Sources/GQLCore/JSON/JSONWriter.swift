/// How JSON text is laid out.
public enum JSONStyle: Sendable, Equatable {
    /// No whitespace at all.
    case compact
    /// Two-space indentation, one member or element per line, `"key": value`, empty `[]` and `{}`.
    case pretty
}

/// Writes JSON values as UTF-8 bytes into a growing buffer.
///
/// Strings are escaped per RFC 8259: `"` and `\` and control characters, using the short forms
/// (`\n`, `\t`, …) where they exist and `\u00XX` otherwise; everything else, non-ASCII included, is
/// written as UTF-8. The output parses back to an equal value. Writing never recurses.
///
/// ```swift
/// var writer = JSONWriter(style: .pretty)
/// writer.write(["id": "p1"])
/// let text = writer.text
/// ```
public struct JSONWriter: Sendable {
    public let style: JSONStyle
    /// The bytes written so far.
    public var bytes: [UInt8] = []

    public init(style: JSONStyle) { self.style = style }

    /// The bytes written so far, as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends a value; `indentLevel` is the depth it starts at (used when streaming array elements).
    public mutating func write(_ value: JSONValue, indentLevel: Int = 0) {
        var output = JSONOutputBuffer(capacity: 4096)
        output.write(value, pretty: style == .pretty, indentLevel: indentLevel)
        output.copy(into: &bytes)
    }

    /// Appends raw ASCII text (punctuation, literals).
    public mutating func appendASCII(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends text verbatim.
    public mutating func appendASCII(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// In pretty style, a newline and the indentation for `level`; nothing in compact style.
    public mutating func newline(_ level: Int) {
        guard style == .pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * max(0, level)))
    }

    /// Appends a quoted, escaped JSON string.
    public mutating func writeString(_ string: String) {
        var output = JSONOutputBuffer(capacity: string.utf8.count + 2)
        output.writeString(string)
        output.copy(into: &bytes)
    }
}

extension JSONValue {
    /// The value as JSON text.
    public func serialized(_ style: JSONStyle = .compact) -> String {
        var writer = JSONWriter(style: style)
        writer.write(self)
        return writer.text
    }
}

extension JSONOutputBuffer {
    /// An array or object being written: its items and the index of the next one.
    private struct Frame {
        let elements: [JSONValue]
        let members: [JSONObject.Member]
        var next = 1
        var isObject: Bool { !members.isEmpty }
    }

    /// Writes `value` with an explicit stack of open containers instead of recursion.
    mutating func write(_ value: JSONValue, pretty: Bool, indentLevel: Int) {
        var frames: [Frame] = []
        var current = value
        while true {
            switch current {
            case .null: append("null")
            case .bool(let flag): flag ? append("true") : append("false")
            case .number(let number): writeVerbatim(number.text)
            case .string(let string): writeString(string)
            case .array(let elements):
                if let first = elements.first {
                    append(JSONByte.openBracket)
                    frames.append(Frame(elements: elements, members: []))
                    if pretty { newline(indentLevel + frames.count) }
                    current = first
                    continue
                }
                append("[]")
            case .object(let object):
                if let first = object.members.first {
                    append(JSONByte.openBrace)
                    frames.append(Frame(elements: [], members: object.members))
                    if pretty { newline(indentLevel + frames.count) }
                    writeKey(first.key, pretty: pretty)
                    current = first.value
                    continue
                }
                append("{}")
            }
            // The value is written: move to the next item of the innermost open container,
            // closing the containers that have no items left.
            while let top = frames.indices.last {
                let next = frames[top].next
                if frames[top].isObject {
                    if next < frames[top].members.count {
                        frames[top].next = next + 1
                        append(JSONByte.comma)
                        if pretty { newline(indentLevel + frames.count) }
                        writeKey(frames[top].members[next].key, pretty: pretty)
                        current = frames[top].members[next].value
                        break
                    }
                } else if next < frames[top].elements.count {
                    frames[top].next = next + 1
                    append(JSONByte.comma)
                    if pretty { newline(indentLevel + frames.count) }
                    current = frames[top].elements[next]
                    break
                }
                let closing = frames[top].isObject ? JSONByte.closeBrace : JSONByte.closeBracket
                frames.removeLast()
                if pretty { newline(indentLevel + frames.count) }
                append(closing)
            }
            if frames.isEmpty { return }
        }
    }

    private mutating func writeKey(_ key: String, pretty: Bool) {
        writeString(key)
        if pretty { append(": ") } else { append(JSONByte.colon) }
    }

    private mutating func newline(_ level: Int) {
        append(JSONByte.newline)
        append(repeating: 0x20, count: 2 * level)
    }

    /// Appends a string's UTF-8 as it is (number literals).
    private mutating func writeVerbatim(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            if let base = utf8.baseAddress { append(base, count: utf8.count) }
        }
    }

    /// Appends a quoted string, escaping `"`, `\` and control characters.
    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            // Room for the common case: nothing to escape.
            reserve(utf8.count + 2)
            appendReserved(JSONByte.quote)
            if let base = utf8.baseAddress {
                var runStart = 0
                var special = JSONByteScan.firstSpecial(in: base, from: 0, to: utf8.count)
                while special < utf8.count {
                    append(base + runStart, count: special - runStart)
                    appendEscape(for: base[special])
                    runStart = special + 1
                    special = JSONByteScan.firstSpecial(in: base, from: runStart, to: utf8.count)
                }
                append(base + runStart, count: utf8.count - runStart)
            }
            append(JSONByte.quote)
        }
    }

    private mutating func appendEscape(for byte: UInt8) {
        switch byte {
        case JSONByte.quote: append("\\\"")
        case JSONByte.backslash: append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            let digits: StaticString = "0123456789abcdef"
            append("\\u00")
            append(digits.utf8Start[Int(byte >> 4)])
            append(digits.utf8Start[Int(byte & 0xF)])
        }
    }
}
