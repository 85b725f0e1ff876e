/// Turns command-line text into typed JSON values, and checks JSON values against field types.
///
/// Text rules (`field=value`, `--where`, `--id`, `--key`):
/// - ID and String stay strings; the AWS string scalars must match their format (``ScalarFormat``);
/// - `Int` must be a 32-bit integer; `AWSTimestamp` a 64-bit one; `Float` a JSON number;
/// - `Boolean` is `true` or `false`; an enum must be one of its values;
/// - `AWSJSON` must itself be valid JSON and is sent as that text, a string;
/// - `null` is JSON null where the caller allows it.
///
/// Every value gqlc puts into variables from text or JSON goes through ``coerce(_:for:schema:allowNull:)``
/// or ``check(_:for:path:schema:)``: field values, filters, conditions, keys and custom-operation arguments.
public enum ValueCoercion {
    /// The JSON value for `text` given for `field` (a scalar or enum field); errors name the field, the value
    /// and, for the AWS formats, a valid example.
    public static func coerce(
        _ text: String, for field: ModelField, schema: ModelSchema, allowNull: Bool
    ) throws(RequestBuildError) -> JSONValue {
        guard let kind = schema.valueKind(of: field.type) else { return .string(text) }
        if allowNull && text == "null" { return .null }
        if kind == .string, case .scalar(let name) = field.type, let format = ScalarFormat(scalar: name), !format.accepts(text) {
            throw .invalidFormat(text, field: field.name, format: format)
        }
        return try coerce(text, as: kind, allowNull: allowNull)
    }

    /// The JSON value for `text` read as a value of `kind` (formats are checked by the field-aware form).
    static func coerce(_ text: String, as kind: ValueKind, allowNull: Bool) throws(RequestBuildError) -> JSONValue {
        if allowNull && text == "null" { return .null }
        switch kind {
        case .string:
            return .string(text)
        case .int:
            return .number(try integer(text, type: "Int", range: Int64(Int32.min)...Int64(Int32.max)))
        case .long:
            return .number(try integer(text, type: "AWSTimestamp", range: Int64.min...Int64.max))
        case .float:
            guard JSONNumber.isValidLiteral(text), let double = Double(text), double.isFinite, let number = JSONNumber(text)
            else { throw .invalidValue(text, expected: "Float", suggestion: nil) }
            return .number(number)
        case .boolean:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw .invalidValue(text, expected: "Boolean", suggestion: nil)
            }
        case .json:
            do {
                _ = try JSONValue.parse(text)
            } catch {
                throw .invalidJSON(error)
            }
            return .string(text)
        case .enumeration(let type):
            guard type.values.contains(text) else {
                throw .invalidValue(text, expected: type.name, suggestion: Suggestions.closest(to: text, in: type.values))
            }
            return .string(text)
        }
    }

    /// What an `AWSTimestamp` is, for errors: relative words and dates are not one.
    static let timestampForm = "AWSTimestamp (whole seconds since 1970-01-01T00:00:00Z, for example 1700000000)"

    /// Parses a decimal integer in `range`; the JSON text is normalised (`+7`, `007` → `7`).
    private static func integer(_ text: String, type: String, range: ClosedRange<Int64>) throws(RequestBuildError) -> JSONNumber {
        guard let value = Int64(text) else {
            let digits = text.drop { $0 == "-" || $0 == "+" }
            if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigitCharacter) { throw .outOfRange(text, type: type) }
            throw .invalidValue(text, expected: type == "Int" ? "Int" : Self.timestampForm, suggestion: nil)
        }
        guard range.contains(value) else { throw .outOfRange(text, type: type) }
        return JSONNumber(value)
    }

    /// Checks a JSON value given for `field` (from `field:=JSON` or `--input`) and returns it ready to send:
    /// AWSJSON values that are not strings are serialised into strings, `__typename` keys are dropped
    /// from embedded objects. `path` names the value in errors (`metadata.source.url`).
    public static func check(_ value: JSONValue, for field: ModelField, path: String, schema: ModelSchema) throws(RequestBuildError) -> JSONValue {
        if case .null = value { return .null }
        guard field.isArray else { return try checkElement(value, type: field.type, path: path, schema: schema) }
        guard case .array(let elements) = value else {
            throw .wrongJSONType(path: path, expected: "a list", found: value.kindDescription)
        }
        var checked: [JSONValue] = []
        checked.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if case .null = element { checked.append(.null); continue }
            checked.append(try checkElement(element, type: field.type, path: "\(path)[\(index)]", schema: schema))
        }
        return .array(checked)
    }

    private static func checkElement(_ value: JSONValue, type: FieldType, path: String, schema: ModelSchema) throws(RequestBuildError) -> JSONValue {
        switch type {
        case .nonModel(let name):
            guard let embedded = schema.nonModels[name] else { return value }
            guard case .object(let object) = value else {
                throw .wrongJSONType(path: path, expected: "an object (\(name))", found: value.kindDescription)
            }
            var result = JSONObject()
            for member in object where member.key != "__typename" {
                guard let sub = embedded.fields.first(where: { $0.name == member.key }) else {
                    throw .atPath(path, error: .unknownField(
                        member.key, type: name, suggestion: Suggestions.closest(to: member.key, in: embedded.fields.map(\.name))))
                }
                result[member.key] = try check(member.value, for: sub, path: path + "." + member.key, schema: schema)
            }
            return .object(result)
        case .model(let name):
            throw .wrongJSONType(path: path, expected: "a key value, not a \(name) object", found: value.kindDescription)
        case .input(let name):
            return try checkInputObject(value, type: name, path: path, schema: schema)
        case .scalar, .enumeration:
            guard let kind = schema.valueKind(of: type) else { return value }
            return try checkScalar(value, kind: kind, typeName: type.description, path: path)
        }
    }

    private static func checkScalar(_ value: JSONValue, kind: ValueKind, typeName: String, path: String) throws(RequestBuildError) -> JSONValue {
        func mismatch(_ expected: String) -> RequestBuildError {
            .wrongJSONType(path: path, expected: expected, found: value.kindDescription)
        }
        switch kind {
        case .json:
            if case .string = value { return value }
            return .string(value.serialized(.compact))
        case .string:
            guard case .string(let text) = value else { throw mismatch("a string (\(typeName))") }
            if let format = ScalarFormat(scalar: typeName), !format.accepts(text) {
                throw .invalidFormat(text, field: path, format: format)
            }
            return value
        case .boolean:
            guard case .bool = value else { throw mismatch("a boolean") }
            return value
        case .float:
            guard case .number(let number) = value else { throw mismatch("a number (Float)") }
            // JSON allows 1e999; a Float (a double) does not hold it.
            guard number.doubleValue?.isFinite == true else { throw .atPath(path, error: .outOfRange(number.text, type: "Float")) }
            return value
        case .int, .long:
            guard case .number(let number) = value, number.isInteger else { throw mismatch("an integer (\(typeName))") }
            let range = kind == .int ? Int64(Int32.min)...Int64(Int32.max) : Int64.min...Int64.max
            guard let integer = number.int64Value, range.contains(integer) else {
                throw .atPath(path, error: .outOfRange(number.text, type: kind == .int ? "Int" : typeName))
            }
            return value
        case .enumeration(let type):
            guard case .string(let text) = value else { throw mismatch("a \(type.name) value (string)") }
            guard type.values.contains(text) else {
                throw .atPath(path, error: .invalidValue(
                    text, expected: type.name, suggestion: Suggestions.closest(to: text, in: type.values)))
            }
            return value
        }
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
