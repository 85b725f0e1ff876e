import Glibc

/// Finding the default schema file, and telling files gqlc cannot read from a broken one.
public enum SchemaDiscovery {
    /// The file looked for when no schema is named.
    public static let defaultFileName = "amplify_outputs.json"

    /// The nearest `amplify_outputs.json`: in `directory`, then each parent up to the root, as git looks for
    /// `.git`. Nil when there is none.
    public static func find(from directory: String) -> String? {
        var current = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        while true {
            let candidate = (current == "/" ? "" : current) + "/" + defaultFileName
            if isRegularFile(candidate) { return candidate }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// The current working directory, or nil when it cannot be read.
    public static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// What gqlc reads, for messages about files it cannot.
    static let readable = "gqlc reads amplify_outputs.json, a legacy amplifyconfiguration.json, "
        + "model-introspection.json (Gen 2: npx ampx generate graphql-client-code --format introspection; "
        + "Gen 1: amplify codegen model-introspection), the @model schema.graphql, or aws-exports.js"

    /// A one-line reason when `path` is an Amplify file of a kind gqlc cannot read (JavaScript, Dart, Swift,
    /// Kotlin, Java, YAML or GraphQL source), judged by its name and first bytes; nil for anything else.
    static func unreadableKind(path: String, bytes: ArraySlice<UInt8>) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let kinds: [(suffixes: [String], kind: String)] = [
            ([".ts"], "a TypeScript file"),
            ([".dart"], "a Dart file (such as amplifyconfiguration.dart)"),
            ([".swift"], "a Swift source file"), ([".kt", ".java"], "a Kotlin or Java source file"),
            ([".yml", ".yaml"], "a YAML file"),
        ]
        if let match = kinds.first(where: { entry in entry.suffixes.contains { name.hasSuffix($0) } }) {
            return "\(match.kind), not JSON; \(readable)"
        }
        let text = String(decoding: bytes.prefix(200), as: UTF8.self).drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        let sourceStarts = ["const ", "export ", "import ", "//", "/*", "var ", "let ", "module.exports"]
        if sourceStarts.contains(where: { text.hasPrefix($0) }) {
            return "looks like source code (such as aws-exports.js), not JSON; \(readable)"
        }
        return nil
    }

    /// A GraphQL SDL file, by its name.
    static func isSDL(path: String) -> Bool { [".graphql", ".gql", ".graphqls"].contains { path.hasSuffix($0) } }

    /// A JavaScript file (`aws-exports.js`), by its name.
    static func isJavaScript(path: String) -> Bool { [".js", ".mjs", ".cjs"].contains { path.hasSuffix($0) } }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
