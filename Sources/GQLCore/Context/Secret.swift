/// A credential (API key or token) that prints as `<redacted>` so that it cannot leak into output by accident.
public struct Secret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The credential itself; read it only to put it on the wire.
    public let value: String

    /// A credential with the text `value`.
    public init(value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}
