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
        var next = 0
        var isObject: Bool { !members.isEmpty }
        var count: Int { isObject ? members.count : elements.count }
    }

    /// Writes `value` with an explicit stack of open containers instead of recursion.
    mutating func write(_ value: JSONValue, pretty: Bool, indentLevel: Int) {
        var frames: [Frame] = []
        if let frame = writeScalarOrOpen(value) { frames.append(frame) }
        while let frame = frames.popLast() {
            // Write the container's items until one is itself a container; that one goes on top.
            // (`frame` is a constant, so items are read in place, without reference counting.)
            let level = indentLevel + frames.count + 1
            var next = frame.next
            var child: Frame?
            while child == nil, next < frame.count {
                if next > 0 { append(JSONByte.comma) }
                if pretty { newline(level) }
                if frame.isObject {
                    writeKey(frame.members[next].key, pretty: pretty)
                    child = writeScalarOrOpen(frame.members[next].value)
                } else {
                    child = writeScalarOrOpen(frame.elements[next])
                }
                next += 1
            }
            if let child {
                frames.append(Frame(elements: frame.elements, members: frame.members, next: next))
                frames.append(child)
            } else {
                if pretty { newline(level - 1) }
                append(frame.isObject ? JSONByte.closeBrace : JSONByte.closeBracket)
            }
        }
    }

    /// Writes a scalar or an empty container whole; for any other container, writes its opening
    /// bracket and returns the frame that will write its items.
    private mutating func writeScalarOrOpen(_ value: JSONValue) -> Frame? {
        switch value {
        case .null: append("null")
        case .bool(let flag): flag ? append("true") : append("false")
        case .number(let number): writeVerbatim(number.text)
        case .string(let string): writeString(string)
        case .array(let elements):
            guard elements.isEmpty else {
                append(JSONByte.openBracket)
                return Frame(elements: elements, members: [])
            }
            append("[]")
        case .object(let object):
            guard object.isEmpty else {
                append(JSONByte.openBrace)
                return Frame(elements: [], members: object.members)
            }
            append("{}")
        }
        return nil
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
        withUTF8(of: text) { output, utf8 in
            if let base = utf8.baseAddress { output.append(base, count: utf8.count) }
        }
    }

    /// Appends a quoted string, escaping `"`, `\` and control characters.
    mutating func writeString(_ string: String) {
        withUTF8(of: string) { output, utf8 in output.writeQuoted(utf8) }
    }

    /// Calls `body` with this buffer and the string's UTF-8, copying the string only if it is not
    /// stored as contiguous UTF-8 already.
    @inline(__always)
    private mutating func withUTF8(of string: String, _ body: (inout JSONOutputBuffer, UnsafeBufferPointer<UInt8>) -> Void) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in body(&self, utf8) }
        if done == nil {
            var copy = string
            copy.withUTF8 { utf8 in body(&self, utf8) }
        }
    }

    private mutating func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
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
