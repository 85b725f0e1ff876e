/// Prints an introspected API as SDL, as AppSync's console shows a schema: the types in the server's order,
/// without GraphQL's and AppSync's built-in scalars and the introspection types.
public enum SDLPrinter {
    static let builtinScalars: Set<String> = IntrospectionDecoder.scalarNames

    public static func print(_ api: APISchema) -> String {
        var blocks: [String] = []
        let roots = [("query", api.queryType, "Query"), ("mutation", api.mutationType, "Mutation"),
                     ("subscription", api.subscriptionType, "Subscription")]
        if roots.contains(where: { $0.1 != nil && $0.1 != $0.2 }) {
            let lines = roots.compactMap { entry in entry.1.map { "  \(entry.0): \($0)" } }
            blocks.append("schema {\n" + lines.joined(separator: "\n") + "\n}")
        }
        for type in api.types where !type.name.hasPrefix("__") {
            var text = description(type.description, indent: "")
            switch type.kind {
            case "SCALAR":
                guard !builtinScalars.contains(type.name) else { continue }
                text += "scalar \(type.name)"
            case "ENUM":
                text += "enum \(type.name) {\n" + type.enumValues.map { "  \($0)" }.joined(separator: "\n") + "\n}"
            case "UNION":
                text += "union \(type.name) = " + type.possibleTypes.joined(separator: " | ")
            case "INPUT_OBJECT":
                text += "input \(type.name) {\n" + type.inputFields.map { inputValue($0, indent: "  ") }.joined(separator: "\n") + "\n}"
            default:
                let keyword = type.kind == "INTERFACE" ? "interface" : "type"
                let implements = type.interfaces.isEmpty ? "" : " implements " + type.interfaces.joined(separator: " & ")
                text += "\(keyword) \(type.name)\(implements) {\n" + type.fields.map(field).joined(separator: "\n") + "\n}"
            }
            blocks.append(text)
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    private static func field(_ field: APISchema.Field) -> String {
        var text = description(field.description, indent: "  ") + "  " + field.name
        if !field.arguments.isEmpty {
            text += "(" + field.arguments.map { inputValue($0, indent: "") }.joined(separator: ", ") + ")"
        }
        text += ": " + field.type.text
        if field.isDeprecated {
            text += " @deprecated" + (field.deprecationReason.map { "(reason: \(DocumentPrinter.quoted($0)))" } ?? "")
        }
        return text
    }

    private static func inputValue(_ value: APISchema.InputValue, indent: String) -> String {
        let head = indent.isEmpty ? "" : description(value.description, indent: indent)
        return head + indent + value.name + ": " + value.type.text + (value.defaultValue.map { " = " + $0 } ?? "")
    }

    private static func description(_ text: String?, indent: String) -> String {
        guard let text, !text.isEmpty else { return "" }
        if !text.contains("\n") { return indent + DocumentPrinter.quoted(text) + "\n" }
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
        return indent + "\"\"\"\n" + body.replacing("\"\"\"", with: "\\\"\"\"") + "\n" + indent + "\"\"\"\n"
    }
}
