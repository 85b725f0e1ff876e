import GQLCore

/// Formats model records as rows: `--output table` (aligned, fitted to a width), `tsv` (a header line, then
/// tab-separated values) or `raw` (one column's values, strings unquoted, as `jq -r`).
///
/// A column is a dot path into the record (`title`, `metadata.wordCount`, `comments.items.content`); through a
/// list, the path collects each element's value. Objects and lists print as compact JSON, shortened in a table.
struct RecordFormatter {
    let format: GlobalOptions.OutputFormat
    let columns: [String]
    /// nil prints without colour.
    let palette: Palette?
    /// The width to fit a table into; nil leaves it unfitted.
    let width: Int?

    /// A table column's width, fixed by the first page so that later pages line up with it.
    typealias Widths = [Int]

    // MARK: Values

    /// The value at `path` in `record`; through a list, a list of each element's value.
    static func value(at path: [Substring], in record: JSONValue) -> JSONValue {
        guard let first = path.first else { return record }
        switch record {
        case .object(let object):
            return value(at: Array(path.dropFirst()), in: object[String(first)] ?? .null)
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
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return ""
        default: return value.serialized(.compact)
        }
    }

    // MARK: Raw and TSV

    /// `--output raw`: the first column's value, strings unquoted, null as `null` (as `jq -r` prints them).
    func rawLine(_ record: JSONValue) -> String {
        let value = Self.value(at: columns.first?.split(separator: ".") ?? [], in: record)
        if case .string(let text) = value { return text + "\n" }
        return value.serialized(.compact) + "\n"
    }

    /// The TSV header: the column names.
    var tsvHeader: String { columns.map(Self.escapeTSV).joined(separator: "\t") + "\n" }

    func tsvLine(_ record: JSONValue) -> String {
        values(record).map { Self.escapeTSV(Self.text($0)) }.joined(separator: "\t") + "\n"
    }

    /// Backslash, tab, newline and carriage return as `\\`, `\t`, `\n` and `\r` (PostgreSQL's text format),
    /// so that every record is one line with one tab between fields.
    static func escapeTSV(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: Table

    /// The narrowest a column is squeezed to before columns are left out: a word of 7 characters and `…`.
    static let narrowest = 8

    /// The longest a nested value (an object or a list) is shown in a table, in characters.
    static let nestedWidth = 30

    /// A table cell: the value's text on one line (control characters as spaces), a nested value shortened.
    private static func cell(_ value: JSONValue) -> String {
        var text = Self.text(value)
        if text.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
        }
        switch value {
        case .object where text.count > nestedWidth, .array where text.count > nestedWidth: return String(text.prefix(nestedWidth - 1)) + "…"
        default: return text
        }
    }

    /// Column widths for `records`: each column as wide as its longest cell or header. To fit ``width``, the
    /// columns that do not fit at ``narrowest`` characters are left out from the right (fewer widths than
    /// columns), then the widest column loses one character at a time until the row fits.
    func widths(for records: [JSONValue]) -> Widths {
        var widths = columns.map(\.count)
        for record in records {
            for (index, value) in values(record).enumerated() { widths[index] = max(widths[index], Self.cell(value).count) }
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

    func tableHeader(_ widths: Widths) -> String {
        row(columns.map { JSONValue.string($0) }, widths: widths, isHeader: true)
    }

    func tableLine(_ record: JSONValue, widths: Widths) -> String {
        row(values(record), widths: widths, isHeader: false)
    }

    private func row(_ values: [JSONValue], widths: Widths, isHeader: Bool) -> String {
        var line = ""
        for (index, value) in values.prefix(widths.count).enumerated() {
            let width = widths[index]
            var text = Self.cell(value)
            if text.count > width { text = String(text.prefix(max(0, width - 1))) + "…" }
            let padding = index == widths.count - 1 ? "" : String(repeating: " ", count: width - text.count + 2)
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
