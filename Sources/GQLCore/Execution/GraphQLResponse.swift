/// A decoded GraphQL response: `data` (absent or null when the operation failed) and `errors`.
public struct GraphQLResponse: Sendable, Equatable {
    /// The `data` member; nil when absent.
    public var data: JSONValue?
    /// The `errors` member; empty when absent.
    public var errors: [GraphQLError]
    /// The whole response object as received (`--raw-response` prints it); nil when built from parts.
    public var envelope: JSONValue?
    /// How many attempts ``GraphQLClient/execute(_:mayRetry:)`` made: more than one means it retried, and an earlier
    /// attempt of a mutation may have been applied with its answer lost.
    public var attempts = 1

    /// Makes a value from its parts.
    public init(data: JSONValue?, errors: [GraphQLError] = [], envelope: JSONValue? = nil) {
        self.data = data
        self.errors = errors
        self.envelope = envelope
    }
}

/// One entry of a response's `errors`, with AppSync's extras.
public struct GraphQLError: Sendable, Equatable, CustomStringConvertible {
    /// One step of an error's `path`: a field name or a list index.
    public enum PathComponent: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    /// A `line`/`column` position in the document.
    public struct Location: Sendable, Equatable {
        public var line: Int
        public var column: Int
        /// Makes a value from its parts.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// The error message.
    public var message: String
    /// AppSync's `errorType` (e.g. `DynamoDB:ConditionalCheckFailedException`), or `extensions.errorType`/`.code`.
    public var errorType: String?
    /// AppSync's `errorInfo`, when not null.
    public var errorInfo: JSONValue?
    /// Where in `data` the error happened, if it says.
    public var path: [PathComponent]?
    /// Where in the document the error happened.
    public var locations: [Location]
    /// The `extensions` object, if any.
    public var extensions: JSONObject?
    /// AppSync's `data` on the error, when not null: the server's record of a `ConflictUnhandled` error.
    public var data: JSONValue?

    /// Makes a value from its parts.
    public init(
        message: String, errorType: String? = nil, errorInfo: JSONValue? = nil, path: [PathComponent]? = nil,
        locations: [Location] = [], extensions: JSONObject? = nil
    ) {
        self.message = message
        self.errorType = errorType
        self.errorInfo = errorInfo
        self.path = path
        self.locations = locations
        self.extensions = extensions
    }

    /// The path as text: `listPosts.items[3].title`.
    public var pathText: String? {
        guard let path, !path.isEmpty else { return nil }
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// One line for people: `DynamoDB:ConditionalCheckFailedException: The conditional request failed (path: updatePost)`.
    public var description: String {
        let flatMessage = message.split(whereSeparator: \.isNewline).map(\.trimmingSpaces)
            .joined(separator: " ")
        var line = flatMessage.isEmpty ? "(no message)" : flatMessage
        if let errorType, !errorType.isEmpty, !line.hasPrefix(errorType) { line = "\(errorType): \(line)" }
        if let pathText {
            line += " (path: \(pathText))"
        } else if let location = locations.first {
            line += " (at \(location.line):\(location.column))"
        }
        return line
    }
}

extension GraphQLResponse {
    /// Reads a response object. Throws when `json` is not one: not an object, neither `data` nor `errors`,
    /// `data` not an object or null, `errors` not a list of objects.
    public init(json: JSONValue) throws(InvalidResponseError) {
        guard case .object(let object) = json else {
            throw .notGraphQL("the body is \(json.kindDescription), not an object with 'data' or 'errors'")
        }
        let dataMember = object["data"]
        let errorsMember = object["errors"]
        guard dataMember != nil || errorsMember != nil else {
            let keys = object.keys.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            throw .notGraphQL("the JSON object has neither 'data' nor 'errors'" + (keys.isEmpty ? "" : " (it has \(keys))"))
        }
        switch dataMember {
        case nil, .null?, .object?: break
        case let other?: throw .notGraphQL("'data' is \(other.kindDescription); expected an object or null")
        }
        var errors: [GraphQLError] = []
        switch errorsMember {
        case nil, .null?: break
        case .array(let list)?:
            for (index, element) in list.enumerated() {
                guard case .object(let errorObject) = element else {
                    throw .notGraphQL("errors[\(index)] is \(element.kindDescription); expected an object")
                }
                errors.append(GraphQLError(errorObject))
            }
        case .object(let single)?:
            // AppSync's real-time endpoint has been seen sending one error object instead of a list.
            errors.append(GraphQLError(single))
        case let other?:
            throw .notGraphQL("'errors' is \(other.kindDescription); expected a list")
        }
        self.init(data: dataMember, errors: errors, envelope: json)
    }

    /// The value at `path` inside `data` (e.g. `["listPosts", "items"]`); an empty path gives `data` itself.
    /// The result may be `.null`. Throws when `data` is missing or a step of the path is absent.
    public func value(at path: [String]) throws(DecodePathError) -> JSONValue {
        guard var current = data, !current.isNull else { throw DecodePathError(path: path, failedAt: 0, found: "no data") }
        for (depth, key) in path.enumerated() {
            guard case .object(let object) = current else {
                throw DecodePathError(path: path, failedAt: depth, found: current.kindDescription)
            }
            guard let next = object[key] else { throw DecodePathError(path: path, failedAt: depth, found: "no '\(key)'") }
            current = next
        }
        return current
    }
}

/// A decode path that the response does not contain.
public struct DecodePathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole path looked for.
    public let path: [String]
    /// How many steps succeeded before the failure.
    public let failedAt: Int
    /// What was found instead.
    public let found: String

    /// A one-line message for people.
    public var description: String {
        let parent = (["data"] + path.prefix(failedAt)).joined(separator: ".")
        if found == "no data" { return "the response has no data, so it has no 'data.\(path.joined(separator: "."))'" }
        if found.hasPrefix("no '") { return "the response has \(found) in \(parent)" }
        return "expected an object at \(parent) but found \(found)"
    }
}

extension GraphQLError {
    /// Reads one error object leniently: a missing message becomes "(no message)", malformed paths and
    /// locations are dropped, so that a quirky server still gets its error reported.
    init(_ object: JSONObject) {
        message = object["message"]?.stringValue ?? "(no message)"
        let extensionsObject = object["extensions"]?.objectValue
        extensions = extensionsObject
        errorType = object["errorType"]?.stringValue
            ?? extensionsObject?["errorType"]?.stringValue
            ?? extensionsObject?["code"]?.stringValue
        if let info = object["errorInfo"], !info.isNull { errorInfo = info } else { errorInfo = nil }
        if let data = object["data"], !data.isNull { self.data = data }
        path = object["path"]?.arrayValue.flatMap { elements -> [PathComponent]? in
            var components: [PathComponent] = []
            for element in elements {
                if let key = element.stringValue {
                    components.append(.key(key))
                } else if let index = element.numberText.flatMap({ Int($0) }) {
                    components.append(.index(index))
                } else {
                    return nil
                }
            }
            return components
        }
        locations = (object["locations"]?.arrayValue ?? []).compactMap { element in
            guard let line = element["line"]?.numberText.flatMap({ Int($0) }),
                let column = element["column"]?.numberText.flatMap({ Int($0) })
            else { return nil }
            return Location(line: line, column: column)
        }
    }
}

extension GraphQLError {
    /// DynamoDB refused a write because its condition was false: a create's key exists, an update's or delete's
    /// record is missing, or a given condition does not hold.
    public var isConditionFailure: Bool { errorType?.hasSuffix("ConditionalCheckFailedException") == true }
}
