#if canImport(Glibc)
import Glibc
#endif
import GQLCore

/// `list --watch` on a terminal: the records as a table on the alternate screen, redrawn in place (one write per
/// frame, each line cleared to its end, so nothing flickers), the rows of the last change marked for a moment, and
/// a status line. The screen and the terminal's modes are restored by ``end()``.
struct LiveTable {
    let output: any TextSink
    let formatter: RecordFormatter
    let model: String
    /// `--sort FIELD` (`-FIELD` descending); nil keeps the order records came in.
    let sort: ListInvocation.WatchSort?
    /// How long a changed row stays marked.
    static let markSeconds = 2.0

    private var marked: [JSONValue] = []
    private var markedAt = 0.0
    private var status = "listing…"
    private var lastEvent = ""

    init(output: any TextSink, formatter: RecordFormatter, model: String, sort: ListInvocation.WatchSort?) {
        self.output = output
        self.formatter = formatter
        self.model = model
        self.sort = sort
    }

    /// Switches to the alternate screen and hides the cursor.
    func begin() {
        output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Shows the cursor and returns to the screen as it was.
    func end() {
        output.write("\u{1B}[?25h\u{1B}[?1049l")
    }

    /// Notes what the events changed (their rows are marked) and the connection's state.
    mutating func note(_ events: [WatchEvent]) {
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

    mutating func setStatus(_ text: String) { status = text }

    /// Whether a marked row's moment has passed (then a redraw unmarks it).
    var markExpired: Bool { !marked.isEmpty && MonotonicTime.seconds() - markedAt >= Self.markSeconds }

    /// Draws `records` over the previous frame.
    mutating func draw(_ records: [JSONValue], keyFields: [String]) {
        if markExpired { marked = [] }
        let (columns, rows) = Self.terminalSize()
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
    static func ascending(_ a: JSONValue, _ b: JSONValue) -> Bool {
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

    private static func terminalSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

}

/// Reads single keys from a terminal on standard input (no echo, no line buffering) until stopped; `q` calls
/// `onQuit`. Ctrl-C still sends SIGINT. The terminal's modes are restored by ``restore()``.
final class KeyReader: @unchecked Sendable {
    private var saved = termios()
    private let active: Bool

    init() {
        active = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &saved) == 0
        guard active else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// Waits for keys on this thread, ticking every half second, until `stop` is set; `q` calls `onQuit`.
    func run(stop: CancellationFlag, onTick: () -> Void, onQuit: () -> Void) {
        while !stop.isCancelled {
            guard active else {
                if stop.wait(seconds: 0.5) { return }
                onTick()
                continue
            }
            var entry = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 500)
            if ready > 0 {
                var byte: UInt8 = 0
                if read(STDIN_FILENO, &byte, 1) == 1, byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") {
                    onQuit()
                    return
                }
            }
            onTick()
        }
    }

    func restore() {
        if active { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }
}
