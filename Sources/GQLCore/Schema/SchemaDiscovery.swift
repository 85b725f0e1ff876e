import Glibc

/// Finding the default schema file, and telling files gqlc cannot read from a broken one.
public enum SchemaDiscovery {
    /// The file looked for when no schema is named.
    public static let defaultFileName = "amplify_outputs.json"

    /// Where Gen 1 keeps the `@model` schema of each API: `amplify/backend/api/<name>/schema.graphql`.
    public static let gen1SchemaPattern = "amplify/backend/api/<name>/schema.graphql"

    /// The nearest schema: in `directory`, then each parent up to the root (as git looks for `.git`), the first
    /// directory with an `amplify_outputs.json` or a Gen 1 `amplify/backend/api/<name>/schema.graphql`. Several
    /// Gen 1 APIs in one project give several paths. Empty when there is none.
    public static func findAll(from directory: String) -> [String] {
        var current = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        while true {
            let base = current == "/" ? "" : current
            if isRegularFile(base + "/" + defaultFileName) { return [base + "/" + defaultFileName] }
            let schemas = gen1Schemas(in: base)
            if !schemas.isEmpty { return schemas }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return [] }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// The nearest schema (see ``findAll(from:)``) when there is exactly one candidate.
    public static func find(from directory: String) -> String? {
        let found = findAll(from: directory)
        return found.count == 1 ? found[0] : nil
    }

    /// `<root>/amplify/backend/api/*/schema.graphql`, or the API's `schema` folder of `.graphql` files when it has
    /// no `schema.graphql`, sorted.
    static func gen1Schemas(in root: String) -> [String] {
        let apis = root + "/amplify/backend/api"
        return directoryEntries(apis).sorted().compactMap { name in
            let api = apis + "/" + name
            if isRegularFile(api + "/schema.graphql") { return api + "/schema.graphql" }
            return SplitSchemaReader.files(in: api + "/schema").isEmpty ? nil : api + "/schema"
        }
    }

    /// For a Gen 1 `@model` schema, the project's `aws-exports.js` (`src/`, then the project root), which holds
    /// the endpoint and API key the SDL lacks.
    public static func companionConfig(forSchema path: String) -> String? {
        guard let range = path.ranges(of: "amplify/backend/api/").last else { return nil }
        let root = String(path[..<range.lowerBound])
        let base = root.isEmpty ? "." : String(root.dropLast())
        return [base + "/src/aws-exports.js", base + "/aws-exports.js"].first(where: isRegularFile)
    }

    /// For an `aws-exports.js` (or another config without models), the Gen 1 `@model` schemas of the project it
    /// sits in: found from its directory upwards.
    public static func companionSchemas(forConfig path: String) -> [String] {
        var current = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if current.isEmpty { current = "/" }
        if !current.hasPrefix("/"), let cwd = currentDirectory() { current = cwd + (current == "." ? "" : "/" + current) }
        while true {
            let schemas = gen1Schemas(in: current == "/" ? "" : current)
            if !schemas.isEmpty { return schemas }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return [] }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// Where `schema pull` caches an endpoint's schema: `<cacheDirectory>/schema-<host>-<hash>.json`, the hash
    /// being the first 16 hex digits of the URL's SHA-256 (so two APIs on one host do not share a file).
    public static func cachePath(endpoint: String, cacheDirectory: String) -> String {
        let host = endpoint.split(separator: "/").dropFirst().first.map(String.init) ?? "endpoint"
        let safeHost = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        let digest = SHA256.hash(endpoint).prefix(8).map { Hex.digits($0) }.joined()
        return cacheDirectory + "/schema-" + safeHost + "-" + digest + ".json"
    }

    /// The file beside a cached schema that lists what `schema pull` assumed, one line each.
    public static func assumptionsPath(cachePath: String) -> String {
        (cachePath.hasSuffix(".json") ? String(cachePath.dropLast(5)) : cachePath) + ".assumptions.txt"
    }

    /// `$XDG_CACHE_HOME/gqlc`, else `$HOME/.cache/gqlc` (XDG base directories); nil without either.
    public static func cacheDirectory(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/gqlc" }
        guard let home = environment["HOME"] ?? ProcessEnvironment.passwordHomeDirectory(), !home.isEmpty else { return nil }
        return home + "/.cache/gqlc"
    }

    static func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The current working directory, or nil when it cannot be read.
    public static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// What gqlc reads, for messages about files it cannot.
    static let readable = "gqlc reads amplify_outputs.json (Gen 2: npx ampx generate outputs), a legacy amplifyconfiguration.json, "
        + "model-introspection.json (Gen 2: npx ampx generate graphql-client-code --format introspection; "
        + "Gen 1: amplify codegen model-introspection), the @model schema.graphql (or its schema/ folder), or aws-exports.js"

    /// A one-line reason when `path` is an Amplify file of a kind gqlc cannot read (JavaScript, Dart, Swift,
    /// Kotlin, Java, YAML or GraphQL source), judged by its name and first bytes; nil for anything else.
    static func unreadableKind(path: String, bytes: ArraySlice<UInt8>) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let kinds: [(suffixes: [String], kind: String)] = [
            ([".ts", ".tsx", ".mts"], "a TypeScript file (Gen 2's amplify/data/resource.ts is code gqlc does not run)"),
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

    /// SDL by its first word (a pipe or a file with another name): `type`, `enum`, `schema`, … or a description.
    static func looksLikeSDL(_ bytes: ArraySlice<UInt8>) -> Bool {
        var text = Substring(String(decoding: bytes.prefix(4096), as: UTF8.self))
        while true {
            text = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "," || $0 == "\u{FEFF}" }
            guard text.hasPrefix("#") else { break }
            text = text.drop { $0 != "\n" }
        }
        let starts = ["type ", "enum ", "input ", "schema ", "schema{", "interface ", "union ", "scalar ", "directive ",
                      "extend ", "\"\"\""]
        return starts.contains { text.hasPrefix($0) }
    }

    /// A JavaScript file (`aws-exports.js`), by its name.
    static func isJavaScript(path: String) -> Bool { [".js", ".mjs", ".cjs"].contains { path.hasSuffix($0) } }

    /// True for a regular file (following symbolic links).
    public static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
