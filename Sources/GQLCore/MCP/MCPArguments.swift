/// A tool call that cannot be carried out: its one-line message goes back as a result with `isError: true`.
public struct MCPToolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// A tool call's `arguments`, read by name and type; names the tool does not take are refused up front.
struct MCPArguments {
    let tool: MCPToolName
    let values: JSONObject

    init(_ tool: MCPToolName, _ values: JSONObject) throws(MCPToolError) {
        for member in values where !tool.arguments.contains(member.key) {
            let known = tool.arguments.isEmpty ? "it takes none" : "it takes " + tool.arguments.joined(separator: ", ")
            throw MCPToolError(
                "\(tool.rawValue) has no argument '\(member.key)'"
                    + (Suggestions.closest(to: member.key, in: tool.arguments).map { "; did you mean '\($0)'?" } ?? "; \(known)"))
        }
        self.tool = tool
        self.values = values
    }

    /// The member, unless absent or null.
    private func given(_ name: String) -> JSONValue? {
        guard let value = values[name], !value.isNull else { return nil }
        return value
    }

    func string(_ name: String) throws(MCPToolError) -> String? {
        guard let value = given(name) else { return nil }
        guard case .string(let text) = value, !text.isEmpty else { throw wrong(name, "a non-empty string", value) }
        return text
    }

    func requiredString(_ name: String) throws(MCPToolError) -> String {
        guard let text = try string(name) else { throw MCPToolError("\(tool.rawValue) needs '\(name)'") }
        return text
    }

    /// A list of strings; a single string counts as a list of one.
    func strings(_ name: String) throws(MCPToolError) -> [String] {
        guard let value = given(name) else { return [] }
        if case .string(let text) = value { return [text] }
        guard case .array(let elements) = value else { throw wrong(name, "a list of strings", value) }
        var texts: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw wrong(name, "a list of strings", value) }
            texts.append(text)
        }
        return texts
    }

    func object(_ name: String) throws(MCPToolError) -> JSONObject? {
        guard let value = given(name) else { return nil }
        guard case .object(let object) = value else { throw wrong(name, "an object", value) }
        return object
    }

    func requiredObject(_ name: String) throws(MCPToolError) -> JSONObject {
        guard let object = try object(name) else { throw MCPToolError("\(tool.rawValue) needs '\(name)', an object") }
        return object
    }

    /// An integer from 1 to `maximum`.
    func count(_ name: String, maximum: Int) throws(MCPToolError) -> Int? {
        guard let value = given(name) else { return nil }
        guard case .number(let number) = value, let count = number.intValue ?? number.doubleValue.flatMap(Self.whole),
              (1...maximum).contains(count)
        else { throw wrong(name, "an integer from 1 to \(maximum)", value) }
        return count
    }

    /// `key`: the record's primary-key fields as `FIELD=VALUE` texts, which the request builder checks and
    /// converts by each key field's type.
    func key() throws(MCPToolError) -> [String] {
        let object = try requiredObject("key")
        var pairs: [String] = []
        for member in object {
            switch member.value {
            case .string(let text): pairs.append("\(member.key)=\(text)")
            case .number(let number): pairs.append("\(member.key)=\(number.text)")
            default: throw wrong("key.\(member.key)", "a string or a number", member.value)
            }
        }
        return pairs
    }

    private func wrong(_ name: String, _ expected: String, _ value: JSONValue) -> MCPToolError {
        MCPToolError("\(tool.rawValue): '\(name)' must be \(expected), not \(value.kindDescription)")
    }

    private static func whole(_ value: Double) -> Int? {
        value.rounded() == value && abs(value) < 1e15 ? Int(value) : nil
    }
}
