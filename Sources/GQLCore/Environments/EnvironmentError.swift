/// Why the config file or a named environment cannot be used; each message names the file (and line).
public enum EnvironmentError: Error, Sendable, Equatable, RemedialMessage {
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// A line is not what the format allows.
    case malformed(path: String, line: Int, reason: String)
    /// The file holds a secret and group or others may read it.
    case readableByOthers(path: String, mode: String, environment: String)
    /// No environment has this name.
    case unknown(name: String, path: String, known: [String], fileExists: Bool)
    /// `add` of a name that is already there.
    case alreadyDefined(name: String, path: String, line: Int)
    /// A value that cannot be used as given.
    case invalidValue(path: String, line: Int, environment: String, key: String, reason: String)
    /// Writing the file failed.
    case writeFailed(FileWriter.WriteError)
    /// No place for the file: neither the config variable, `XDG_CONFIG_HOME` nor a home directory.
    case noPath

    /// The one-line message, with the remedy (adding or removing an environment) said by `say`.
    public func message(remedy say: (Remedy) -> String) -> String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read the config file \(path): \(reason)"
        case .malformed(let path, let line, let reason): return "\(path):\(line): \(reason)"
        case .readableByOthers(let path, let mode, let environment):
            return "the config file \(path) holds secrets (environment '\(environment)') and can be read by other users "
                + "(mode \(mode)); fix it with: chmod 600 \(path)"
        case .unknown(let name, let path, let known, let fileExists):
            guard fileExists else {
                return "unknown environment '\(name)': there is no config file \(path); \(say(.addEnvironment(name)))"
            }
            guard !known.isEmpty else { return "unknown environment '\(name)': \(path) defines no environments" }
            let suggestion = Suggestions.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
            return "unknown environment '\(name)'\(suggestion); \(path) defines " + known.joined(separator: ", ")
        case .alreadyDefined(let name, let path, let line):
            return "environment '\(name)' is already defined at \(path):\(line); \(say(.removeEnvironment(name)))"
        case .invalidValue(let path, let line, let environment, let key, let reason):
            return "\(path):\(line): \(key) of environment '\(environment)': \(reason)"
        case .writeFailed(let error): return "cannot write the config file \(error.path): \(error.reason)"
        case .noPath:
            return "no place for the config file: set \(EnvironmentConfig.pathVariable), XDG_CONFIG_HOME or HOME"
        }
    }
}
