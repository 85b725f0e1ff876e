/// Formats model records as rows: a table (aligned, fitted to a width), TSV (a header line, then tab-separated
/// values) or raw (one column's values, strings unquoted, as `jq -r`).
///
/// A column is a dot path into the record (`title`, `metadata.wordCount`, `comments.items.content`); through a
/// list, the path collects each element's value. Objects and lists print as compact JSON, shortened in a table.
public struct RecordFormatter: Sendable {
    /// The columns: dot paths into a record.
    public let columns: [String]
    /// nil prints without colour.
    public let palette: Palette?
    /// The width to fit a table into (a terminal's columns); nil leaves it unfitted.
    public let width: Int?

    /// A table column's width, fixed by the first page so that later pages line up with it.
    public typealias Widths = [Int]

    /// A formatter of `columns`, coloured with `palette` when it is given, a table fitted to `width` when it is given.
    public init(columns: [String], palette: Palette?, width: Int?) {
        self.columns = columns
        self.palette = palette
        self.width = width
    }

    // MARK: Values

    /// The value at `path` in `record`; through a list, a list of each element's value. A connection
    /// (`{"items": [...], "nextToken": …}`) is passed through when the path does not name `items`, so that
    /// `comments.content` is the short form of `comments.items.content`.
    public static func value(at path: [Substring], in record: JSONValue) -> JSONValue {
        guard let first = path.first else { return record }
        switch record {
        case .object(let object):
            if let field = object[String(first)] { return value(at: Array(path.dropFirst()), in: field) }
            if let items = object["items"], case .array = items { return value(at: path, in: items) }
            return .null
        case .array(let elements):
            return .array(elements.map { value(at: path, in: $0) })
        default:
            return .null
        }
    }

    private func values(_ record: JSONValue) -> [JSONValue] {
        columns.map { Self.value(at: $0.split(separator: "."), in: record) }
    }

    /// A value as text: a string as it is, null as nothing, anything else as compact JSON.
    public static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return ""
        default: return value.serialized(.compact)
        }
    }

    // MARK: Raw and TSV

    /// Raw: the first column's value, strings unquoted, null as `null` (as `jq -r` prints them).
    public func rawLine(_ record: JSONValue) -> String {
        let value = Self.value(at: columns.first?.split(separator: ".") ?? [], in: record)
        if case .string(let text) = value { return text + "\n" }
        return value.serialized(.compact) + "\n"
    }

    /// The TSV header: the column names.
    public var tsvHeader: String { columns.map(Self.escapeTSV).joined(separator: "\t") + "\n" }

    /// One record's TSV line.
    public func tsvLine(_ record: JSONValue) -> String {
        values(record).map { Self.escapeTSV(Self.text($0)) }.joined(separator: "\t") + "\n"
    }

    /// Backslash, tab, newline and carriage return as `\\`, `\t`, `\n` and `\r`, and every other control character
    /// (ESC, BEL, NUL, DEL, C1) as `\xHH` (PostgreSQL's text format reads both), so that every record is one line
    /// with one tab between fields and nothing reaches a terminal as a control sequence.
    public static func escapeTSV(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || isControl($0) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case _ where isControl(scalar): out += "\\x" + Hex.digits(UInt8(scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 and C1 control characters and DEL: what a terminal may take as a command.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    // MARK: Table

    /// The narrowest a column is squeezed to before columns are left out: a word of 7 characters and `…`.
    public static let narrowest = 8

    /// The longest a nested value (an object or a list) is shown in a table fitted to a width, in columns.
    public static let nestedWidth = 30

    /// How many records a table's widths are fitted to: they are held until then (or the end of the output).
    public static let tableSample = 50

    /// A table cell: the value's text on one line (control characters as spaces), a nested value shortened when the
    /// table is fitted to a width.
    private func cell(_ value: JSONValue) -> String {
        var text = Self.text(value)
        if text.unicodeScalars.contains(where: Self.isControl) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { Self.isControl($0) ? " " : $0 }))
        }
        switch value {
        case .object where width != nil, .array where width != nil: return DisplayWidth.prefix(text, columns: Self.nestedWidth)
        default: return text
        }
    }

    /// Column widths for `records` (the first ``tableSample`` of the output), in terminal columns: each column as
    /// wide as its widest cell or header. To fit ``width``, the columns that do not fit at ``narrowest`` are left
    /// out from the right (fewer widths than columns), then the widest column loses one column at a time until the
    /// row fits. Without a width nothing is cut: a later, longer value only pushes its row's next cells right.
    public func widths(for records: [JSONValue]) -> Widths {
        var widths = columns.map(DisplayWidth.of)
        for record in records {
            for (index, value) in values(record).enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell(value))) }
        }
        guard let width else { return widths }
        let floors = widths.map { min($0, Self.narrowest) }
        var kept = 0
        var used = 0
        for floor in floors {
            let needed = floor + (kept > 0 ? 2 : 0)
            if kept > 0, used + needed > width { break }
            used += needed
            kept += 1
        }
        widths = Array(widths.prefix(kept))
        let available = width - 2 * (kept - 1)
        var total = widths.reduce(0, +)
        while total > available {
            guard let widest = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
            total -= 1
        }
        return widths
    }

    /// The header row: the column names, in bold when coloured.
    public func tableHeader(_ widths: Widths) -> String {
        row(columns.map { JSONValue.string($0) }, widths: widths, isHeader: true)
    }

    /// One record's row.
    public func tableLine(_ record: JSONValue, widths: Widths) -> String {
        row(values(record), widths: widths, isHeader: false)
    }

    /// One row. Fitted to a width, a cell longer than its column may take the line's free space (what the columns
    /// and their gaps leave of the width), pushing only its own row's next cells right, as a row without a width does;
    /// the last column may use the rest of the line. Beyond that a cell is cut (with `…`), so a row never passes the width.
    private func row(_ values: [JSONValue], widths: Widths, isHeader: Bool) -> String {
        var line = ""
        var used = 0
        var free = width.map { max(0, $0 - widths.reduce(0, +) - 2 * max(0, widths.count - 1)) } ?? 0
        for (index, value) in values.prefix(widths.count).enumerated() {
            let isLast = index == widths.count - 1
            var text = cell(value)
            if let width {
                text = DisplayWidth.prefix(text, columns: isLast ? max(widths[index], width - used) : widths[index] + free)
            }
            let shown = DisplayWidth.of(text)
            if !isLast { free -= max(0, shown - widths[index]) }
            let padding = isLast ? "" : String(repeating: " ", count: max(0, widths[index] - shown) + 2)
            used += max(widths[index], shown) + 2
            line += paint(text, value, isHeader: isHeader) + padding
        }
        return line + "\n"
    }

    private func paint(_ text: String, _ value: JSONValue, isHeader: Bool) -> String {
        guard let palette, !text.isEmpty else { return text }
        if isHeader { return palette.paint(text, palette.header) }
        switch value {
        case .number: return palette.paint(text, palette.number)
        case .bool: return palette.paint(text, palette.boolean)
        default: return text
        }
    }
}
