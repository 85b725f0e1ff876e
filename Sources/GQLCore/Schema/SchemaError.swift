/// A problem with a model schema or config file, located by file and JSON path
/// (`blog.json: models.Post.fields.title.type: expected a string or an object`).
public struct SchemaError: Error, Sendable, Equatable, RemedialMessage {
    /// The file as the user named it.
    public var file: String
    /// Where in the file: a JSON path like `models.Post.fields.title`, or `line:column` for syntax errors.
    public var location: String
    public var message: String
    /// What would fix it, said after ``message`` (which then ends in "or").
    public var remedy: Remedy?

    public init(file: String, location: String, message: String, remedy: Remedy? = nil) {
        self.file = file
        self.location = location
        self.message = message
        self.remedy = remedy
    }

    /// The one-line message, with the remedy said by `name`.
    public func message(remedy name: (Remedy) -> String) -> String {
        let message = remedy.map { self.message + " " + name($0) } ?? self.message
        return (location.isEmpty ? "\(file): \(message)" : "\(file): \(location): \(message)").escapingLineBreaks
    }
}

/// A JSON value together with its path, for decoding with precise error locations.
struct JSONNode {
    let value: JSONValue
    let path: String
    let file: String

    func error(_ message: String) -> SchemaError { SchemaError(file: file, location: path, message: message) }

    func child(_ key: String, _ value: JSONValue) -> JSONNode {
        let segment = key.isEmpty || key.contains(where: { $0 == "." || $0 == " " }) ? "[\"\(key)\"]" : key
        return JSONNode(value: value, path: path.isEmpty ? segment : (segment.hasPrefix("[") ? path + segment : path + "." + segment), file: file)
    }

    func element(_ index: Int, _ value: JSONValue) -> JSONNode {
        JSONNode(value: value, path: path + "[\(index)]", file: file)
    }

    /// The member `key`, or nil when it is absent or null.
    func optional(_ key: String) throws(SchemaError) -> JSONNode? {
        guard case .object(let object) = value else { throw error("expected an object, found \(value.kindDescription)") }
        guard let member = object[key], !member.isNull else { return nil }
        return child(key, member)
    }

    func required(_ key: String) throws(SchemaError) -> JSONNode {
        guard let node = try optional(key) else {
            throw child(key, .null).error("missing required key")
        }
        return node
    }

    func object() throws(SchemaError) -> JSONObject {
        guard case .object(let object) = value else { throw error("expected an object, found \(value.kindDescription)") }
        return object
    }

    func members() throws(SchemaError) -> [(key: String, node: JSONNode)] {
        try object().map { (key: $0.key, node: child($0.key, $0.value)) }
    }

    func elements() throws(SchemaError) -> [JSONNode] {
        guard case .array(let array) = value else { throw error("expected an array, found \(value.kindDescription)") }
        return array.enumerated().map { element($0.offset, $0.element) }
    }

    func string() throws(SchemaError) -> String {
        guard case .string(let string) = value else { throw error("expected a string, found \(value.kindDescription)") }
        return string
    }

    func bool() throws(SchemaError) -> Bool {
        guard case .bool(let flag) = value else { throw error("expected true or false, found \(value.kindDescription)") }
        return flag
    }

    /// A string, or an array of strings (older metadata wrote single names as strings).
    func stringList() throws(SchemaError) -> [String] {
        if case .string(let single) = value { return [single] }
        var result: [String] = []
        for element in try elements() { result.append(try element.string()) }
        return result
    }

    func optionalString(_ key: String) throws(SchemaError) -> String? { try optional(key)?.string() }

    // MARK: Names

    /// A string that must be a GraphQL name, since gqlc writes it into documents: a name like
    /// `title } evil: deletePost(...) { id` would otherwise change what a request does.
    func name() throws(SchemaError) -> String { try checkedName(string()) }

    func optionalName(_ key: String) throws(SchemaError) -> String? { try optional(key)?.name() }

    /// Like ``stringList()``, each element a GraphQL name.
    func nameList() throws(SchemaError) -> [String] {
        if case .string(let single) = value { return [try checkedName(single)] }
        var result: [String] = []
        for element in try elements() { result.append(try element.name()) }
        return result
    }

    /// The member `name`, or else `key` (this node's key in its map), as a checked GraphQL name.
    func name(orKey key: String) throws(SchemaError) -> String {
        if let name = try optionalName("name") { return name }
        return try checkedName(key)
    }

    /// A DynamoDB index name (see ``GraphQLName/isIndexName(_:)``).
    func optionalIndexName(_ key: String) throws(SchemaError) -> String? {
        guard let node = try optional(key) else { return nil }
        let text = try node.string()
        guard GraphQLName.isIndexName(text) else { throw node.error(GraphQLName.notAnIndexNameMessage(text)) }
        return text
    }

    /// `text` when it is a GraphQL name; else an error at this node.
    func checkedName(_ text: String) throws(SchemaError) -> String {
        guard GraphQLName.isValid(text) else { throw error(GraphQLName.notANameMessage(text)) }
        return text
    }
    func optionalBool(_ key: String) throws(SchemaError) -> Bool? { try optional(key)?.bool() }
}
