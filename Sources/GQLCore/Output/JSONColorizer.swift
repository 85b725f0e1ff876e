/// Colours JSON text that ``JSONWriter`` wrote: keys, strings, numbers, booleans and null.
///
/// It scans the bytes as JSON tokens, so it also colours a fragment of a streamed array (`,` then a value),
/// as long as no string is cut in two, which the printers never do.
public struct JSONColorizer: Sendable {
    /// The colours.
    public let palette: Palette

    /// A colorizer with `palette`'s colours.
    public init(palette: Palette) { self.palette = palette }

    /// `bytes` with each token wrapped in its colour's escape sequence.
    public func colorize(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = Self.stringEnd(bytes, from: index)
                var next = end
                while next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\n") { next += 1 }
                let isKey = next < bytes.count && bytes[next] == UInt8(ascii: ":")
                palette.paint(bytes[index..<end], isKey ? palette.key : palette.string, into: &out)
                index = end
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let end = Self.end(bytes, from: index) { b in
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e")
                        || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
                }
                palette.paint(bytes[index..<end], palette.number, into: &out)
                index = end
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let end = Self.end(bytes, from: index) { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
                palette.paint(bytes[index..<end], byte == UInt8(ascii: "n") ? palette.null : palette.boolean, into: &out)
                index = end
            default:
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    /// The index just after the string that starts at `start` (its closing quote included).
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    private static func end(_ bytes: [UInt8], from start: Int, while belongs: (UInt8) -> Bool) -> Int {
        var index = start
        while index < bytes.count, belongs(bytes[index]) { index += 1 }
        return index
    }
}
