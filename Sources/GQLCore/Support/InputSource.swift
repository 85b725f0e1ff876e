/// Where to read a file argument from: a path, or standard input (spelled `-`). Both are read once, whole, by
/// ``FileReader``, so pipes, FIFOs, `<(…)` and devices work like files.
///
/// ```swift
/// let variables = try InputSource(argument: "vars.json").json(from: StandardInput())
/// ```
public enum InputSource: Equatable, Sendable {
    case standardInput
    case file(String)

    /// `-` is standard input; anything else is a path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    /// A secret's source: `-` for standard input, `@FILE` for a file; nil for a value given as it is.
    public init?(secret value: String) {
        if value == "-" {
            self = .standardInput
        } else if value.hasPrefix("@"), value.count > 1 {
            self = .file(String(value.dropFirst()))
        } else {
            return nil
        }
    }

    /// The name errors use: the path, or `<stdin>`.
    public var name: String {
        switch self {
        case .standardInput: return "<stdin>"
        case .file(let path): return path
        }
    }

    /// The whole content; `-` is read from `input`.
    public func bytes(from input: any InputReader) throws(FileReadError) -> [UInt8] {
        switch self {
        case .standardInput: return try input.readAll()
        case .file(let path): return try FileReader.bytes(atPath: path)
        }
    }

    /// The whole content as UTF-8 text.
    public func text(from input: any InputReader) throws(FileReadError) -> String {
        try FileReader.text(try bytes(from: input), name: name)
    }

    /// What was piped to `input` (`tool < query.graphql`, `… | tool`), as jq and `curl -d @-` read a pipe: nil when
    /// `input` is a terminal (nobody piped anything) or holds only whitespace.
    public static func pipedText(from input: any InputReader) throws(FileReadError) -> String? {
        guard !input.isTerminal else { return nil }
        let text = try standardInput.text(from: input)
        return text.trimmingWhitespace.isEmpty ? nil : text
    }

    /// The content as one JSON value.
    public func json(from input: any InputReader) throws(InputValueError) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = try self.bytes(from: input)
        } catch {
            throw .unreadable(error)
        }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw .invalidJSON(name: name, error)
        }
    }

    /// A secret (an API key, a token, a client secret) given as `@FILE` or `-`, read so that it never shows in `ps`:
    /// what the file or `input` holds, without leading and trailing whitespace (such as the last line break); `value`
    /// itself when it names neither.
    public static func secret(_ value: String, from input: any InputReader) throws(InputValueError) -> String {
        guard let source = InputSource(secret: value) else { return value }
        let secret: String
        do {
            secret = try source.text(from: input).trimmingWhitespace
        } catch {
            throw .unreadable(error)
        }
        guard !secret.isEmpty else { throw .empty(name: source.name) }
        return secret
    }
}

/// Why a value read from a file argument cannot be used; the caller puts the option's name before it.
public enum InputValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or standard input could not be read.
    case unreadable(FileReadError)
    /// The content is not JSON.
    case invalidJSON(name: String, JSONParseError)
    /// A secret's file or standard input held nothing but whitespace.
    case empty(name: String)

    /// `vars.json: no such file`, `vars.json: invalid JSON at 1:20: …`, `<stdin> is empty`.
    public var description: String {
        switch self {
        case .unreadable(let error): error.description
        case .invalidJSON(let name, let error): "\(name): invalid JSON at \(error.line):\(error.column): \(error.message)"
        case .empty(let name): "\(name) is empty"
        }
    }
}
