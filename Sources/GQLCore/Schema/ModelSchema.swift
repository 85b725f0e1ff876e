/// An app's data model, as Amplify's model introspection schema (MIS v1) describes it.
public struct ModelSchema: Sendable, Equatable {
    /// Models by name.
    public var models: [String: Model]
    /// Enums by name.
    public var enums: [String: EnumType]
    /// Embedded (non-model) types by name.
    public var nonModels: [String: NonModelType]
    /// Custom queries, mutations and subscriptions, in the file's order (queries first).
    public var customOperations: [CustomOperation]
    /// Input types of custom-operation arguments by name (the `inputs` section; their fields are its `attributes`).
    public var inputs: [String: NonModelType]
    /// Custom operations `schema pull` left out, by name, with why (read from the pulled schema's notes, as the
    /// model-introspection format has no place for them).
    public var leftOutOperations: [String: String] = [:]

    public init(
        models: [String: Model] = [:], enums: [String: EnumType] = [:], nonModels: [String: NonModelType] = [:],
        customOperations: [CustomOperation] = [], inputs: [String: NonModelType] = [:]
    ) {
        self.models = models
        self.enums = enums
        self.nonModels = nonModels
        self.customOperations = customOperations
        self.inputs = inputs
    }

    /// Model names, sorted.
    public var modelNames: [String] { models.keys.sorted() }
}

/// One `@model` type.
public struct Model: Sendable, Equatable {
    public var name: String
    /// The plural used by `list<PluralName>`.
    public var pluralName: String
    /// Fields in the order the schema file lists them.
    public var fields: [ModelField]
    public var primaryKey: PrimaryKey
    /// Secondary indexes (`key` attributes with a name), callable or not.
    public var indexes: [SecondaryIndex]
    /// The server's operation names; nil where an operation is disabled.
    public var operations: ModelOperations
    /// The `@auth` rules, as the schema lists them (empty when it lists none).
    public var authRules: [AuthRule]
    /// AppSync conflict detection on the model's table (Gen 1 DataStore); nil when it has none.
    public var conflictDetection: ConflictDetection?

    public init(
        name: String, pluralName: String, fields: [ModelField], primaryKey: PrimaryKey,
        indexes: [SecondaryIndex] = [], operations: ModelOperations? = nil, authRules: [AuthRule] = []
    ) {
        self.authRules = authRules
        self.name = name
        self.pluralName = pluralName
        self.fields = fields
        self.primaryKey = primaryKey
        self.indexes = indexes
        self.operations = operations ?? ModelOperations(modelName: name, pluralName: pluralName)
    }

    /// The field with this name, if any.
    public func field(named name: String) -> ModelField? { fields.first { $0.name == name } }

    /// The primary-key fields, in key order.
    public var keyFields: [ModelField] { primaryKey.fields.compactMap { field(named: $0) } }
}

/// A field of a model or embedded type.
public struct ModelField: Sendable, Equatable {
    public var name: String
    public var type: FieldType
    /// The field is a list.
    public var isArray: Bool
    /// Non-null; for a list, this is about its elements (`[T!]`).
    public var isRequired: Bool
    /// For a list: whether the list itself may be null.
    public var isArrayNullable: Bool
    /// Managed by the server (`createdAt`, `updatedAt`): never sent in inputs.
    public var isReadOnly: Bool
    /// Present on relationship fields.
    public var association: Association?
    /// The server fills the field when a create leaves it out (`@default`). Model introspection does not
    /// record defaults; schema sources that do (the `@model` SDL) set this.
    public var hasDefault: Bool

    public init(
        name: String, type: FieldType, isArray: Bool = false, isRequired: Bool = false,
        isArrayNullable: Bool = true, isReadOnly: Bool = false, association: Association? = nil, hasDefault: Bool = false
    ) {
        self.hasDefault = hasDefault
        self.name = name
        self.type = type
        self.isArray = isArray
        self.isRequired = isRequired
        self.isArrayNullable = isArrayNullable
        self.isReadOnly = isReadOnly
        self.association = association
    }
}

/// What a field holds.
public enum FieldType: Sendable, Equatable, CustomStringConvertible {
    /// A GraphQL or AWS scalar: `ID`, `String`, `Int`, `AWSDateTime`, …
    case scalar(String)
    /// An enum, by name.
    case enumeration(String)
    /// An embedded custom type, by name.
    case nonModel(String)
    /// Another model (relationship fields only).
    case model(String)
    /// An input type, by name (custom-operation arguments only).
    case input(String)

    /// True for relationship fields' `{"model": …}` type.
    public var isModel: Bool { if case .model = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .scalar(let name), .enumeration(let name), .nonModel(let name), .model(let name), .input(let name): return name
        }
    }
}

/// How a relationship field connects two models.
public enum Association: Sendable, Equatable {
    /// A list of children. `associatedWith` names the child's foreign-key fields,
    /// or (Gen1 with `fields`, many-to-many) the child's model-typed belongsTo field.
    case hasMany(associatedWith: [String])
    /// One child. A non-empty `targetNames` holds foreign keys on this (parent) record (Gen1);
    /// an empty one means the key lives on the child, in `associatedWith` (Gen2 references).
    case hasOne(associatedWith: [String], targetNames: [String])
    /// The parent, whose key is stored in this record's `targetNames` fields.
    case belongsTo(targetNames: [String])
}

/// A model's primary key: the partition key field, then any sort-key fields.
public struct PrimaryKey: Sendable, Equatable {
    public var partitionKey: String
    public var sortKeys: [String]

    public init(partitionKey: String = "id", sortKeys: [String] = []) {
        self.partitionKey = partitionKey
        self.sortKeys = sortKeys
    }

    /// All key field names, in order.
    public var fields: [String] { [partitionKey] + sortKeys }
    /// True for the default `id` key.
    public var isDefaultID: Bool { partitionKey == "id" && sortKeys.isEmpty }
}

/// A secondary index. It can be queried only when it has a `queryField`.
public struct SecondaryIndex: Sendable, Equatable {
    public var name: String
    /// The Query field the server exposes for this index, if any.
    public var queryField: String?
    /// Partition key, then sort-key fields.
    public var fields: [String]

    public init(name: String, queryField: String?, fields: [String]) {
        self.name = name
        self.queryField = queryField
        self.fields = fields
    }
}

/// The root-field names of a model's operations; nil means the operation is disabled.
public struct ModelOperations: Sendable, Equatable {
    public var get: String?
    public var list: String?
    public var create: String?
    public var update: String?
    public var delete: String?
    public var onCreate: String?
    public var onUpdate: String?
    public var onDelete: String?

    /// Each operation's kind (`get`, `list`, …, `onDelete`) and root-field name, in that order.
    public var named: [(kind: String, name: String?)] {
        [("get", get), ("list", list), ("create", create), ("update", update), ("delete", delete),
         ("onCreate", onCreate), ("onUpdate", onUpdate), ("onDelete", onDelete)]
    }

    /// The transformer's default names: `getPost`, `listPosts`, `createPost`, …, `onCreatePost`, ….
    public init(modelName: String, pluralName: String) {
        let name = modelName.uppercasedFirst
        get = "get" + name
        list = "list" + pluralName.uppercasedFirst
        create = "create" + name
        update = "update" + name
        delete = "delete" + name
        onCreate = "onCreate" + name
        onUpdate = "onUpdate" + name
        onDelete = "onDelete" + name
    }
}

/// An enum type and its values.
public struct EnumType: Sendable, Equatable {
    public var name: String
    public var values: [String]
    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// An embedded custom type.
public struct NonModelType: Sendable, Equatable {
    public var name: String
    public var fields: [ModelField]
    public init(name: String, fields: [ModelField]) {
        self.name = name
        self.fields = fields
    }
}

extension String {
    /// The string with its first character upper-cased: `getPost` → `GetPost`.
    public var uppercasedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
