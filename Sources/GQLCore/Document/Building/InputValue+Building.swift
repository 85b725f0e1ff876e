/// Literals make arguments read like GraphQL:
///
/// ```swift
/// let arguments: KeyValuePairs<String, InputValue> = [
///     "id": "1000",                    // "1000" (a String)
///     "first": 3,                      // 3
///     "unit": .enumValue("FOOT"),      // FOOT
///     "episode": .variable("episode"), // $episode
///     "filter": ["stars": ["ge": 4]],  // {stars: {ge: 4}}
/// ]
/// ```
extension InputValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(String(value)) }
    public init(floatLiteral value: Double) { self = .float(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: InputValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, InputValue)...) {
        self = .object(elements.map { ObjectField($0.0, $0.1) })
    }

    /// An Int literal: `InputValue.int(42)` prints `42`.
    public static func int(_ value: Int) -> InputValue { .int(String(value)) }

    /// A Float literal: `InputValue.float(1.72)` prints `1.72`. Infinity and NaN have no GraphQL
    /// literal and become `null`.
    public static func float(_ value: Double) -> InputValue {
        value.isFinite ? .float(String(value)) : .null
    }
}

/// Why a JSON value could not become an ``InputValue``.
public struct InputValueConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON object key that is not a GraphQL name.
    public let key: String
    /// Where the key is, as `$.filter.and[0]`.
    public let path: String

    public var description: String {
        "JSON key \(DocumentPrinter.quoted(key)) at \(path) is not a valid GraphQL input field name; names have only "
            + "letters, digits and '_', and do not start with a digit (pass such data as a variable instead)"
    }
}

extension InputValue {
    /// Converts JSON into a GraphQL literal: objects become input objects (keys in order), arrays
    /// lists, numbers Int or Float (text kept exactly), strings strings (escaped by the printer).
    /// JSON strings never become enum values; use ``InputValue/enumValue(_:)`` for those.
    ///
    /// ```swift
    /// let value = try InputValue(json: JSONValue.parse(#"{"title": "Hi \"you\"", "stars": 5}"#))
    /// DocumentPrinter.print(value)   // {title: "Hi \"you\"", stars: 5}
    /// ```
    ///
    /// - Throws: ``InputValueConversionError`` when an object key is not a GraphQL name, since
    ///   names cannot be escaped.
    public init(json: JSONValue) throws(InputValueConversionError) {
        self = try InputValue.converting(json, path: "$")
    }

    private static func converting(_ json: JSONValue, path: String) throws(InputValueConversionError) -> InputValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .boolean(flag)
        case .string(let text): return .string(text)
        case .number(let number): return number.isInteger ? .int(number.text) : .float(number.text)
        case .array(let elements):
            var values: [InputValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                values.append(try converting(element, path: "\(path)[\(index)]"))
            }
            return .list(values)
        case .object(let object):
            var fields: [ObjectField] = []
            for member in object {
                guard GraphQLName.isValid(member.key) else {
                    throw InputValueConversionError(key: member.key, path: path)
                }
                fields.append(ObjectField(member.key, try converting(member.value, path: "\(path).\(member.key)")))
            }
            return .object(fields)
        }
    }
}

/// A type written as text: `"ID!"`, `"[Episode!]"`.
///
/// ```swift
/// VariableDefinition("ids", type: "[ID!]!")
/// ```
///
/// A literal that is not a valid type is kept as a single name, which ``Document/validate()``
/// reports; use ``TypeReference/init(parsing:)`` for text from elsewhere.
extension TypeReference: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        self = (try? TypeReference(parsing: text)) ?? .named(text)
    }
}
