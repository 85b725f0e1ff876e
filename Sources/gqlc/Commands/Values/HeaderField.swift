/// An extra HTTP header from `-H 'Name: value'`.
struct HeaderField: Equatable, Sendable, CustomStringConvertible {
    let name: String
    let value: String

    /// Parses `Name: value`; the name must be an HTTP token and whitespace around the value is dropped.
    static func parse(_ text: String) throws(UsageError) -> HeaderField {
        guard let colon = text.firstIndex(of: ":") else {
            throw UsageError("invalid header '\(text)': expected 'Name: value', e.g. -H 'X-Trace: on'")
        }
        let name = String(text[..<colon])
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenCharacter) else {
            throw UsageError("invalid header name '\(name)' in '\(text)': use letters, digits and - only")
        }
        let value = text[text.index(after: colon)...].trimmingSpaces()
        return HeaderField(name: name, value: value)
    }

    /// `Name: <redacted>`: header values often carry credentials, so they never reach logs as typed.
    var description: String { "\(name): <redacted>" }

    /// RFC 9110 token characters.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }
}

/// A credential (API key or token) that prints as `<redacted>` so that it cannot leak into output by accident.
struct Secret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The credential itself; read it only to put it on the wire.
    let value: String

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
