/// The formats results and records are written in. Each has one ``RecordWriter`` type, listed in ``writer(style:formatter:)``:
/// a new format is a case here, its writer type, and its line in that list.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// One JSON document (lists are written as one array).
    case json
    /// One compact JSON value per line (list items stream as they arrive).
    case ndjson
    /// Aligned columns for people, fitted to the terminal's width.
    case table
    /// Tab-separated values with a header line, for cut, awk and spreadsheets.
    case tsv
    /// One field's value per line, strings without quotes (as `jq -r`).
    case raw

    /// Whether this is one of the record formats (table, tsv, raw) that only model records can be written in.
    public var isRecordFormat: Bool { self == .table || self == .tsv || self == .raw }

    /// Whether it is coloured when colour is on: JSON and tables are; TSV and raw never are (line tools read them).
    public var takesColour: Bool { self == .json || self == .ndjson || self == .table }

    /// The writer of a stream of records in this format: the one list of formats and their writers.
    public func writer(style: JSONStyle, formatter: RecordFormatter) -> any RecordWriter {
        switch self {
        case .json: JSONArrayWriter(style: style)
        case .ndjson: NDJSONWriter(style: style)
        case .table: TableWriter(formatter: formatter)
        case .tsv: TSVWriter(formatter: formatter)
        case .raw: RawWriter(formatter: formatter)
        }
    }
}
