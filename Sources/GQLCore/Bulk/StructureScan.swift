/// Follows JSON's structure byte by byte, without parsing: nesting depth and strings, so that a value's end is found.
struct StructureScan {
    private(set) var depth = 0
    private(set) var inString = false
    private var escaped = false
    /// A byte other than a blank was taken.
    private(set) var started = false
    /// The last byte taken closed a top-level container or string.
    private(set) var closedValue = false

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    mutating func take(_ byte: UInt8) {
        closedValue = false
        if !started && Self.isBlank(byte) { return }
        started = true
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                closedValue = depth == 0
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth = max(0, depth - 1)
            closedValue = depth == 0
        default: break
        }
    }

    /// A line break: a JSON string cannot span lines, so one still open is broken there.
    mutating func endLine() {
        inString = false
        escaped = false
    }

    /// The byte ranges of the top-level values in `bytes`: containers to their matching close, strings to their
    /// closing quote, other runs of text to the next blank or bracket. A stray closing bracket is a value of its own.
    static func values(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isBlank(byte) {
                index += 1
                continue
            }
            let start = index
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
                var scan = StructureScan()
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "\n") { scan.endLine() } else { scan.take(bytes[index]) }
                    index += 1
                    if scan.closedValue { break }
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                index += 1
            default:
                while index < bytes.count, !isBlank(bytes[index]),
                    !"{}[]\"".utf8.contains(bytes[index])
                {
                    index += 1
                }
            }
            ranges.append(start..<index)
        }
        return ranges
    }
}
