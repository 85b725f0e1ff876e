/// A credential (API key or token) that prints as `<redacted>` so that it cannot leak into output by accident.
struct Secret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The credential itself; read it only to put it on the wire.
    let value: String

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
}
