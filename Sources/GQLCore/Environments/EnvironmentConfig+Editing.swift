/// Adding and removing environments: the rest of the file (comments, other sections) stays as it was, and the file is
/// written atomically with mode 0600.
extension EnvironmentConfig {
    /// The file with `environment` appended as a new section.
    public func adding(_ environment: NamedEnvironment) throws(EnvironmentError) -> EnvironmentConfig {
        if let existing = environments.first(where: { $0.name == environment.name }) {
            throw .alreadyDefined(name: environment.name, path: path, line: existing.line)
        }
        if let problem = Self.nameProblem(environment.name) { throw .malformed(path: path, line: 0, reason: problem) }
        var text = lines
        if let last = text.last, !last.trimmingWhitespace.isEmpty { text.append("") }
        text.append("[env \(environment.name)]")
        for setting in environment.settings { text.append("\(setting.key.rawValue) = \(setting.value)") }
        return try Self.parse(text.joined(separator: "\n") + "\n", path: path)
    }

    /// The file without the section `name` (from its header to the next header; comments just above the next header
    /// stay with it).
    public func removing(_ name: String) throws(EnvironmentError) -> EnvironmentConfig {
        let target = try environment(named: name)
        let start = target.line - 1
        var end = environments.first(where: { $0.line > target.line }).map { $0.line - 1 } ?? lines.count
        while end > start + 1, lines[end - 1].trimmingWhitespace.hasPrefix("#") || lines[end - 1].trimmingWhitespace.hasPrefix(";") {
            end -= 1
        }
        var text = Array(lines[..<start]) + Array(lines[end...])
        while text.last?.trimmingWhitespace.isEmpty == true { text.removeLast() }
        var config = try Self.parse(text.joined(separator: "\n") + (text.isEmpty ? "" : "\n"), path: path)
        config.exists = exists
        return config
    }

    /// Adds `environment` to the file and writes it; what was done.
    public func add(_ environment: NamedEnvironment) throws(EnvironmentError) -> EnvironmentNote {
        try adding(environment).write()
        return .added(environment.name, path: path)
    }

    /// Removes the environment `name` from the file and writes it; what was done.
    public func remove(_ name: String) throws(EnvironmentError) -> EnvironmentNote {
        try removing(name).write()
        return .removed(name, path: path)
    }

    /// Writes the file (0600, its folder 0700 when created).
    public func write() throws(EnvironmentError) {
        let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        do {
            try FileWriter.write(Array(text.utf8), to: path, createDirectories: true, mode: 0o600)
        } catch {
            throw .writeFailed(error)
        }
    }
}

extension EnvironmentConfig {
    /// A path as an added setting stores it: a relative one made absolute from `directory` (the working directory),
    /// since the file reads relative paths from its own folder; `~/…` and absolute paths as given.
    public static func storedPath(_ path: String, from directory: String?) -> String {
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), let directory else { return path }
        return directory + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}

/// What an edit of the config file did, or why a listing of its environments is empty, in one line.
public enum EnvironmentNote: Sendable, Equatable, CustomStringConvertible {
    /// The config file does not exist: there are no environments.
    case noFile(path: String)
    /// The environment was added to the file.
    case added(String, path: String)
    /// The environment was removed from the file.
    case removed(String, path: String)

    public var description: String {
        switch self {
        case .noFile(let path): "no environments: \(path) does not exist"
        case .added(let name, let path): "added environment '\(name)' to \(path)"
        case .removed(let name, let path): "removed environment '\(name)' from \(path)"
        }
    }
}
