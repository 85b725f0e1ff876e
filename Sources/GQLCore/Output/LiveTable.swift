/// A watched list (``ObservedList``) on a terminal: the records as a table on the alternate screen, redrawn in place
/// (one write per frame, each line cleared to its end, so nothing flickers), the rows of the last change marked for
/// a moment, and a status line. The screen is restored by ``end()``.
public struct LiveTable: Sendable {
    /// The order of the rows: by one field's value (a dot path), ascending or descending.
    public struct Sort: Equatable, Sendable {
        /// The field, as a dot path.
        public let field: String
        /// Largest first.
        public let descending: Bool

        /// Rows ordered by `field`.
        public init(field: String, descending: Bool) {
            self.field = field
            self.descending = descending
        }
    }

    /// The terminal the frames are written to.
    public let output: any OutputSink
    /// The columns and colours of the rows (its width is the terminal's).
    public let formatter: RecordFormatter
    /// The model's name, in the status line.
    public let model: String
    /// nil keeps the order records came in.
    public let sort: Sort?
    /// The terminal's size when a frame is drawn (it may change between frames).
    private let terminalSize: @Sendable () -> (columns: Int, rows: Int)
    /// How long a changed row stays marked.
    public static let markSeconds = 2.0

    private var marked: [JSONValue] = []
    private var markedAt = 0.0
    private var status = "listing…"
    private var lastEvent = ""

    /// A table of `model`'s records written to `output`, a terminal whose size `terminalSize` tells (standard
    /// output's unless given).
    public init(
        output: any OutputSink, formatter: RecordFormatter, model: String, sort: Sort?,
        terminalSize: @escaping @Sendable () -> (columns: Int, rows: Int) = TerminalSize.standardOutputOrDefault
    ) {
        self.output = output
        self.formatter = formatter
        self.model = model
        self.sort = sort
        self.terminalSize = terminalSize
    }

    /// Switches to the alternate screen and hides the cursor.
    public func begin() {
        output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Shows the cursor and returns to the screen as it was.
    public func end() {
        output.write("\u{1B}[?25h\u{1B}[?1049l")
    }

    /// Notes what the events changed (their rows are marked) and the connection's state.
    public mutating func note(_ events: [WatchEvent]) {
        var changed: [JSONValue] = []
        for event in events {
            switch event {
            case .item: break
            case .synced(let count): status = "synced \(count)"
            case .change(let kind, let record):
                changed.append(record)
                lastEvent = "\(kind.rawValue) at \(Timestamp.now().clockUTC)"
            }
        }
        if !changed.isEmpty {
            marked = changed
            markedAt = MonotonicTime.seconds()
        }
    }

    /// The connection's state, in the status line.
    public mutating func setStatus(_ text: String) { status = text }

    /// Whether a marked row's moment has passed (then a redraw unmarks it).
    public var markExpired: Bool { !marked.isEmpty && MonotonicTime.seconds() - markedAt >= Self.markSeconds }

    /// Draws `records` over the previous frame.
    public mutating func draw(_ records: [JSONValue], keyFields: [String]) {
        if markExpired { marked = [] }
        let (columns, rows) = terminalSize()
        let ordered = sorted(records)
        let visible = Array(ordered.prefix(max(0, rows - 3)))
        let widths = formatter.widths(for: visible)
        let markedKeys = Set(marked.map { Self.key($0, keyFields) })
        var frame = "\u{1B}[H"
        // Table lines are fitted to the terminal's width by the formatter; the status line is cut here.
        func line(_ text: String, reverse: Bool = false) {
            frame += (reverse ? "\u{1B}[7m" + text + "\u{1B}[27m" : text) + "\u{1B}[K\r\n"
        }
        var head = "\(model): \(records.count) records · \(status)"
        if !lastEvent.isEmpty { head += " · last event: \(lastEvent)" }
        line(String((head + " · q to quit").prefix(max(1, columns))))
        line(String(formatter.tableHeader(widths).dropLast()))
        for record in visible {
            line(String(formatter.tableLine(record, widths: widths).dropLast()), reverse: markedKeys.contains(Self.key(record, keyFields)))
        }
        if ordered.count > visible.count { line("… \(ordered.count - visible.count) more") }
        output.write(frame + "\u{1B}[J")
    }

    private func sorted(_ records: [JSONValue]) -> [JSONValue] {
        guard let sort else { return records }
        let path = sort.field.split(separator: ".")
        return records.sorted { left, right in
            let (a, b) = (RecordFormatter.value(at: path, in: left), RecordFormatter.value(at: path, in: right))
            return sort.descending ? Self.ascending(b, a) : Self.ascending(a, b)
        }
    }

    /// Numbers by value, everything else by its text; nulls last.
    public static func ascending(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, _): return false
        case (_, .null): return true
        case (.number(let x), .number(let y)): return (Double(x.text) ?? 0) < (Double(y.text) ?? 0)
        default: return RecordFormatter.text(a) < RecordFormatter.text(b)
        }
    }

    private static func key(_ record: JSONValue, _ fields: [String]) -> String {
        fields.map { RecordFormatter.text(record[$0] ?? .null) }.joined(separator: "\u{1F}")
    }
}

extension LiveTable.Sort {
    /// `FIELD` (smallest first) or `-FIELD` (largest first).
    public init(parsing text: String) {
        self.init(field: text.hasPrefix("-") ? String(text.dropFirst()) : text, descending: text.hasPrefix("-"))
    }
}
