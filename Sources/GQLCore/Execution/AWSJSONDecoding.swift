/// `--decode-json-fields`: AWSJSON values printed as the JSON they hold instead of as strings.
///
/// AppSync sends AWSJSON as a string; that is the wire's truth, so decoding is an output choice. Objects are
/// recognised by their `__typename` (gqlc selects it on every model and embedded type); a string that is
/// not valid JSON is printed as it came.
public enum AWSJSONDecoding {
    /// `value` with the AWSJSON fields of every typed object in it decoded, at any depth.
    public static func decode(_ value: JSONValue, schema: ModelSchema) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { decode($0, schema: schema) })
        case .object(let object):
            let fields = object["__typename"]?.stringValue.flatMap {
                schema.models[$0]?.fields ?? schema.nonModels[$0]?.fields
            } ?? []
            var result = JSONObject()
            for member in object {
                if let field = fields.first(where: { $0.name == member.key }), field.type == .scalar("AWSJSON") {
                    result[member.key] = decodeText(member.value)
                } else {
                    result[member.key] = decode(member.value, schema: schema)
                }
            }
            return .object(result)
        default:
            return value
        }
    }

    /// A string holding JSON as that JSON (each element of a list); anything else as it is.
    private static func decodeText(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return (try? JSONValue.parse(text)) ?? value
        case .array(let elements): return .array(elements.map(decodeText))
        default: return value
        }
    }
}
