/// A line and column in a GraphQL document, both 1-based. Columns count Unicode scalars.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line; LF, CRLF and CR each end a line.
    public let line: Int
    /// 1-based column, counted in Unicode scalars.
    public let column: Int

    /// A position from 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }

    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// The UTF-8 bytes of a document and its file name, for turning byte offsets into positions.
struct SourceText: Sendable {
    let bytes: [UInt8]
    let fileName: String?

    init(_ text: String, fileName: String?) {
        bytes = Array(text.utf8)
        self.fileName = fileName
    }

    /// The position of one byte offset, with the text of its line (one pass over the text before it).
    func locate(_ offset: Int) -> (position: SourcePosition, lineText: String) {
        let located = locateAll([offset])
        return located[offset] ?? (SourcePosition(line: 1, column: 1), "")
    }

    /// Positions and line texts of many offsets in a single pass, so that many errors in a huge
    /// document stay cheap.
    func locateAll(_ offsets: [Int]) -> [Int: (position: SourcePosition, lineText: String)] {
        var result: [Int: (position: SourcePosition, lineText: String)] = [:]
        let sorted = Set(offsets.map { min(max($0, 0), bytes.count) }).sorted()
        var line = 1
        var lineStart = 0
        var index = 0
        var column = 1
        var cachedLine: (start: Int, text: String)?
        for target in sorted {
            while index < target {
                let byte = bytes[index]
                if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                    line += 1
                    lineStart = index + 1
                    column = 1
                } else if byte & 0xC0 != 0x80 && byte != 0x0D {
                    column += 1
                }
                index += 1
            }
            if cachedLine?.start != lineStart { cachedLine = (lineStart, lineText(startingAt: lineStart)) }
            result[target] = (SourcePosition(line: line, column: column), cachedLine?.text ?? "")
        }
        var mapped: [Int: (position: SourcePosition, lineText: String)] = [:]
        for offset in offsets { mapped[offset] = result[min(max(offset, 0), bytes.count)] }
        return mapped
    }

    private func lineText(startingAt start: Int) -> String {
        var end = start
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// Renders an error as `file:LINE:COLUMN: message`, then the source line, then a caret under the column.
enum SourceSnippet {
    /// Lines longer than this many scalars are shown as a window around the column.
    static let maximumWidth = 100

    /// `file:LINE:COLUMN: message`, or `LINE:COLUMN: message` without a file name.
    static func summary(fileName: String?, position: SourcePosition?, message: String) -> String {
        var prefix = fileName.map { $0 + ":" } ?? ""
        if let position { prefix += "\(position.line):\(position.column):" }
        return prefix.isEmpty ? message : prefix + " " + message
    }

    /// The summary line, the source line, and a caret under the column.
    static func report(fileName: String?, position: SourcePosition?, message: String, lineText: String?) -> String {
        let head = summary(fileName: fileName, position: position, message: message)
        guard let position, let lineText else { return head }
        var scalars = Array(lineText.unicodeScalars)
        var caretIndex = min(max(position.column - 1, 0), scalars.count)
        var leading = false
        var trailing = false
        if scalars.count > maximumWidth {
            let half = maximumWidth / 2
            let start = max(0, min(caretIndex - half, scalars.count - maximumWidth))
            let end = min(scalars.count, start + maximumWidth)
            leading = start > 0
            trailing = end < scalars.count
            scalars = Array(scalars[start..<end])
            caretIndex -= start
        }
        var shown = leading ? "…" : ""
        var caret = leading ? " " : ""
        for (index, scalar) in scalars.enumerated() {
            // C0, DEL and C1 controls (U+009B is a terminal's CSI) become U+FFFD; a tab keeps the caret aligned.
            let isControl = scalar != "\t" && scalar.properties.generalCategory == .control
            let visible: Unicode.Scalar = isControl ? "\u{FFFD}" : scalar
            shown.unicodeScalars.append(visible)
            if index < caretIndex { caret += scalar == "\t" ? "\t" : " " }
        }
        if trailing { shown += "…" }
        return head + "\n" + shown + "\n" + caret + "^"
    }
}
