/// Small questions the request builder asks about models and fields.
extension Model {
    /// True when `name` is one of the primary-key fields.
    public func isKeyField(_ name: String) -> Bool { primaryKey.fields.contains(name) }

    /// The primary key of a record of this model, in key order; a missing key field is `null`.
    public func key(of record: JSONObject) -> JSONObject {
        var key = JSONObject()
        for field in primaryKey.fields { key[field] = record[field] ?? .null }
        return key
    }

    /// Relationship fields (fields whose type is another model), in schema order.
    public var relationshipFields: [ModelField] { fields.filter { $0.type.isModel } }
}

extension ModelField {
    /// True for fields whose type is another model.
    public var isRelationship: Bool { type.isModel }
}

/// How a scalar or enum value is written in JSON, and which filter operators apply to it.
public enum ValueKind: Sendable, Equatable {
    /// ID, String and the string-like AWS scalars (AWSDate, AWSEmail, …).
    case string
    /// GraphQL `Int`: 32-bit.
    case int
    /// `AWSTimestamp` (seconds since the epoch) and `BigInt`: 64-bit integers.
    case long
    /// `Float` (and `Double`).
    case float
    case boolean
    /// `AWSJSON`: a JSON document sent as a string.
    case json
    /// An enum and its values.
    case enumeration(EnumType)

    /// The kind of a scalar type name; unknown scalars are treated as strings.
    public init(scalar name: String) {
        switch name {
        case "Int": self = .int
        case "AWSTimestamp", "BigInt", "Long": self = .long
        case "Float", "Double": self = .float
        case "Boolean": self = .boolean
        case "AWSJSON": self = .json
        default: self = .string
        }
    }
}

extension ModelSchema {
    /// The value kind of a scalar or enum field type; nil for embedded and model types.
    /// An enum missing from `enums` is treated as a string.
    public func valueKind(of type: FieldType) -> ValueKind? {
        switch type {
        case .scalar(let name): return ValueKind(scalar: name)
        case .enumeration(let name): return enums[name].map(ValueKind.enumeration) ?? .string
        case .nonModel, .model, .input: return nil
        }
    }
}
