/// An `--include` path: association names from the command's model, e.g. `comments` or `post.comments`.
struct IncludePath: Equatable, Hashable, Sendable {
    /// The association names in order (`["post", "comments"]`).
    let components: [String]

    /// Parses a dot path of field names.
    static func parse(_ text: String) throws(UsageError) -> IncludePath {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.allSatisfy(GraphQLName.isValid) else {
            throw UsageError(
                "invalid value '\(text)' for '--include': expected association names joined by dots, "
                    + "e.g. 'comments' or 'post.comments'")
        }
        return IncludePath(components: components)
    }

    /// Parses every path, dropping repeats but keeping the first-given order.
    static func parseAll(_ texts: [String]) throws(UsageError) -> [IncludePath] {
        var seen: Set<IncludePath> = []
        var paths: [IncludePath] = []
        for text in texts {
            let path = try parse(text)
            if seen.insert(path).inserted { paths.append(path) }
        }
        return paths
    }
}

/// Where to read text from: a file path, or standard input (spelled `-`).
enum InputSource: Equatable, Sendable {
    case standardInput
    case file(String)

    /// `-` is standard input; anything else is a path.
    init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }
}
