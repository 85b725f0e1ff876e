/// A subscription run's results written as they come, each event as one value in a ``LiveEventShape``, to a list
/// stream of ``ResultPrinter`` (one line each, or one array closed by ``finish()``).
public struct LiveEventWriter: Sendable {
    private var stream: ResultPrinter.ListStream
    /// How each event is written.
    public let shape: LiveEventShape
    /// The output was closed (a closed pipe): nothing more is written.
    public private(set) var closed = false

    /// A writer of events in `shape` to `stream`.
    public init(_ stream: ResultPrinter.ListStream, shape: LiveEventShape) {
        self.stream = stream
        self.shape = shape
    }

    /// Writes the event if it is a result the shape writes (an event whose result is null because of its errors
    /// writes nothing: its errors are reported); every other event is not written. False once the output is closed.
    public mutating func write(_ event: LiveEvent) -> Bool {
        guard !closed else { return false }
        guard case .result(let name, let value, let response) = event, shape.writes(value, of: response) else { return true }
        closed = !stream.write([shape.line(name: name, value: value, response: response)])
        return !closed
    }

    /// Ends the output (closes a JSON array) unless it was closed.
    public mutating func finish() {
        if !closed { stream.finish() }
    }
}
