import Synchronization

/// A one-line progress display on a terminal for long jobs: items, pages, rate and elapsed time, redrawn in place at
/// most every ``interval``. Listings feed it pages; bulk jobs feed it items done and failed.
///
/// Make one only for a terminal (gqlc's: standard error, when standard output is not a pipe or socket and the run is
/// neither quiet nor verbose), so a pipe or a log file never receives it. A pipe's reader (`gqlc list | jq`) may write
/// to the same terminal and the line cannot be erased before it does; output to the terminal itself is written with
/// the line erased (``above(_:_:)``), output to a file or a device never meets it.
public final class ProgressReporter: Sendable {
    private struct State {
        var items = 0
        var pages = 0
        var failed = 0
        var lastDraw: Double?
        var shown = false
    }

    private let state = Mutex(State())
    private let sink: any OutputSink
    /// When the job started, in monotonic seconds (the core's one clock).
    private let start = MonotonicTime.seconds()
    /// The least time between two redraws, in seconds.
    public let interval = 0.1

    /// A line drawn on `sink`, a terminal; the job's time starts now.
    public init(sink: any OutputSink) { self.sink = sink }

    /// Counts `items` more in `pages` more pages, and redraws if the last drawing is old enough.
    public func advance(items: Int, pages: Int = 0) {
        redraw { state in
            state.items += items
            state.pages += pages
        }
    }

    /// Counts the items and pages of every listing page `client` receives.
    public func countPages(of client: inout GraphQLClient) {
        keepNoticesAbove(&client)
        client.progress = { [self] event in
            if case .page(let items) = event { advance(items: items, pages: 1) }
        }
    }

    /// Writes `client`'s retry notices (long waits) above the line rather than through it.
    public func keepNoticesAbove(_ client: inout GraphQLClient) {
        guard let trace = client.trace else { return }
        client.trace = { [self] event in
            if event.retryNotice != nil { Self.above(self) { trace(event) } } else { trace(event) }
        }
    }

    /// Sets a bulk job's counts so far (`items` includes the `failed` ones), and redraws if the last drawing is old enough.
    public func update(items: Int, failed: Int) {
        redraw { state in
            state.items = items
            state.failed = failed
        }
    }

    private func redraw(_ change: (inout State) -> Void) {
        let now = MonotonicTime.seconds()
        let line: String? = state.withLock { state in
            change(&state)
            if let last = state.lastDraw, now - last < interval { return nil }
            state.lastDraw = now
            state.shown = true
            return Self.line(items: state.items, pages: state.pages, failed: state.failed, elapsed: .nanoseconds(Int64(max(0, now - start) * 1e9)))
        }
        if let line { sink.write("\r\u{1B}[K" + line) }
    }

    /// Runs `write` (output to the terminal the line is on) with the line erased, then draws it again;
    /// just runs it without a reporter.
    public static func above(_ progress: ProgressReporter?, _ write: () -> Void) {
        progress?.clear()
        write()
        progress?.advance(items: 0)
    }

    /// Erases the line (before other output goes to the same terminal, and at the end).
    public func clear() {
        let shown = state.withLock { state in
            defer { state.shown = false; state.lastDraw = nil }
            return state.shown
        }
        if shown { sink.write("\r\u{1B}[K") }
    }

    /// `1,234 items, 3 pages, 812 items/s, 1.5 s`; a bulk job's `1,234 items, 2 failed, 812 items/s, 1.5 s`.
    public static func line(items: Int, pages: Int, failed: Int = 0, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var parts = ["\(grouped(items)) \(items == 1 ? "item" : "items")"]
        if pages > 0 { parts.append("\(grouped(pages)) \(pages == 1 ? "page" : "pages")") }
        if failed > 0 { parts.append("\(grouped(failed)) failed") }
        if seconds >= 0.05 { parts.append("\(grouped(Int(Double(items) / seconds))) items/s") }
        parts.append("\(DurationText.seconds(seconds)) s")
        return parts.joined(separator: ", ")
    }

    /// `1234567` as `1,234,567`.
    public static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}
