import GQLCore

/// The command line's file arguments: a path, or `-` for standard input. Both are read once, whole, by
/// the core's ``FileReader``, so pipes, FIFOs, `<(…)` and devices work like files.
extension InputSource {
    /// The name errors use: the path, or `<stdin>`.
    var name: String {
        switch self {
        case .standardInput: return "<stdin>"
        case .file(let path): return path
        }
    }

    /// The whole content.
    func bytes(_ console: Console) throws(FileReadError) -> [UInt8] {
        switch self {
        case .standardInput: return try console.input.readAll()
        case .file(let path): return try FileReader.bytes(atPath: path)
        }
    }

    /// The whole content as UTF-8 text.
    func text(_ console: Console) throws(FileReadError) -> String {
        try FileReader.text(try bytes(console), name: name)
    }
}

/// The JSON values that options read from files: `--vars FILE`, `--input FILE`, `--filter @FILE`
/// (each also `-` for standard input). Errors name the option and the file:
/// `--vars: vars.json: no such file`, `--vars: vars.json: invalid JSON at 1:20: …`.
enum JSONArgument {
    static func read(_ source: InputSource, option: String, console: Console) throws(RunFailure) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = try source.bytes(console)
        } catch {
            throw RunFailure.usage("\(option): \(error.description)")
        }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw RunFailure.usage("\(option): \(source.name): invalid JSON at \(error.line):\(error.column): \(error.message)")
        }
    }
}
