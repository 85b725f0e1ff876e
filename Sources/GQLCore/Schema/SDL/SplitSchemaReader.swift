import Glibc

/// A Gen 1 schema split into `amplify/backend/api/<name>/schema/*.graphql`: every `.graphql` file under the
/// folder (sub-folders included, in name order) read as one document, as the Amplify CLI does. Errors name the
/// file and its own line.
///
/// ```swift
/// let files = SplitSchemaReader.files(in: "amplify/backend/api/blog/schema")  // [".../Blog.graphql", ".../Post.graphql"]
/// ```
public enum SplitSchemaReader {
    /// The `.graphql` files under `directory`, sorted by path; empty when it is not a directory or holds none.
    public static func files(in directory: String) -> [String] {
        var result: [String] = []
        for name in SchemaDiscovery.directoryEntries(directory).sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            if isDirectory(path) {
                result += files(in: path)
            } else if SchemaDiscovery.isSDL(path: name), SchemaDiscovery.isRegularFile(path) {
                result.append(path)
            }
        }
        return result
    }

    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads the files as one schema; a syntax or schema error is reported in the file it is in.
    public static func read(directory: String) throws(SchemaError) -> ModelSchema {
        let paths = files(in: directory)
        guard !paths.isEmpty else {
            throw SchemaError(file: directory, location: "", message: "is a directory with no .graphql files")
        }
        var text = ""
        var parts: [(path: String, text: String)] = []
        var starts: [(line: Int, path: String)] = []  // the first line of each file in the joined text
        var line = 1
        for path in paths {
            let bytes: [UInt8]
            do {
                bytes = try FileReader.bytes(atPath: path)
            } catch {
                throw SchemaError(file: path, location: "", message: error.reason)
            }
            var part = String(decoding: bytes, as: UTF8.self)
            if !part.hasSuffix("\n") { part += "\n" }
            starts.append((line, path))
            parts.append((path, part))
            text += part
            line += part.utf8.count { $0 == UInt8(ascii: "\n") }
        }
        do {
            return try TransformerSchemaReader.read(text: text, path: directory)
        } catch {
            // A brace left open in one file makes the parser fail in the next: name the file where it opened.
            for part in parts {
                if let open = unclosedBrace(in: part.text) {
                    throw SchemaError(
                        file: part.path, location: "\(open.line):\(open.column)",
                        message: "'{' is not closed before the end of this file (each file holds whole definitions)")
                }
            }
            throw locate(error, starts: starts)
        }
    }

    /// The line and column of the outermost `{` that `text` leaves open, outside strings and comments; nil when
    /// every brace is closed.
    static func unclosedBrace(in text: String) -> (line: Int, column: Int)? {
        let scalars = Array(text.unicodeScalars)
        var open: [Int] = []  // offsets of the open braces
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { offset < scalars.count ? scalars[offset] : nil }
        while index < scalars.count {
            switch scalars[index] {
            case "#":
                while let scalar = at(index), scalar != "\n" { index += 1 }
            case "\"" where at(index + 1) == "\"" && at(index + 2) == "\"":
                index += 3
                while index < scalars.count, !(scalars[index] == "\"" && at(index + 1) == "\"" && at(index + 2) == "\"") {
                    index += scalars[index] == "\\" ? 2 : 1
                }
                index += 2
            case "\"":
                index += 1
                while let scalar = at(index), scalar != "\"", scalar != "\n" { index += scalar == "\\" ? 2 : 1 }
            case "{": open.append(index)
            case "}": _ = open.popLast()
            default: break
            }
            index += 1
        }
        guard let first = open.first else { return nil }
        let before = scalars[..<first]
        let line = before.count { $0 == "\n" } + 1
        let column = first - (before.lastIndex(of: "\n") ?? -1)
        return (line, column)
    }

    /// Moves an error at `line:column` of the joined text to the file and line it came from.
    static func locate(_ error: SchemaError, starts: [(line: Int, path: String)]) -> SchemaError {
        let parts = error.location.split(separator: ":")
        guard parts.count == 2, let line = Int(parts[0]), let start = starts.last(where: { $0.line <= line }) else {
            return error
        }
        var located = error
        (located.file, located.location) = (start.path, "\(line - start.line + 1):\(parts[1])")
        return located
    }
}
