/// How JSON text is laid out.
public enum JSONStyle: Sendable, Equatable {
    /// No whitespace at all.
    case compact
    /// Two-space indentation, one member or element per line, `"key": value`.
    case pretty
}

/// Writes JSON values as UTF-8 bytes into a growing buffer.
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
        switch value {
        case .null: appendASCII("null")
        case .bool(let flag): appendASCII(flag ? "true" : "false")
        case .number(let number): appendASCII(number.text)
        case .string(let string): writeString(string)
        case .array(let elements):
            if elements.isEmpty { appendASCII("[]"); return }
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indentLevel + 1)
                write(element, indentLevel: indentLevel + 1)
            }
            newline(indentLevel)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty { appendASCII("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for member in object {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                newline(indentLevel + 1)
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                if style == .pretty { bytes.append(UInt8(ascii: " ")) }
                write(member.value, indentLevel: indentLevel + 1)
            }
            newline(indentLevel)
            bytes.append(UInt8(ascii: "}"))
        }
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
        for _ in 0..<level { bytes.append(0x20); bytes.append(0x20) }
    }

    /// Appends a quoted, escaped JSON string.
    public mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var copy = string
        copy.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                switch byte {
                case UInt8(ascii: "\""): appendASCII("\\\"")
                case UInt8(ascii: "\\"): appendASCII("\\\\")
                case 0x0A: appendASCII("\\n")
                case 0x0D: appendASCII("\\r")
                case 0x09: appendASCII("\\t")
                case 0x08: appendASCII("\\b")
                case 0x0C: appendASCII("\\f")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    appendASCII("\\u00")
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
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
