/// Progress of a long request sequence, for a progress display: its own event, apart from the `--verbose` trace
/// (``TraceEvent``), so that counting works whether or not anything is traced.
public enum ProgressEvent: Sendable, Equatable {
    /// A list page of `items` items was received.
    case page(items: Int)
}

/// Receives progress events; called on the thread that runs the request.
public typealias ProgressSink = @Sendable (ProgressEvent) -> Void
