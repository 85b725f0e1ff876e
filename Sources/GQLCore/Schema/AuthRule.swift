/// One `@auth` rule of a model, as model introspection records it (`{"type":"auth","properties":{"rules":[…]}}`).
///
/// gqlc does not enforce rules (the server does); it keeps them so that `models` can show who may do what.
public struct AuthRule: Sendable, Equatable {
    /// `public`, `private`, `owner`, `groups` or `custom`.
    public var allow: String
    /// `apiKey`, `iam`, `identityPool`, `userPools`, `oidc` or `function`; nil when the schema leaves the default.
    public var provider: String?
    /// `create`, `update`, `delete`, `read`, or the fine-grained `get`, `list`, `sync`, `listen`, `search`.
    public var operations: [String]
    /// Owner rules: the field holding the owner, and the token claim compared with it.
    public var ownerField: String?
    public var identityClaim: String?
    /// Group rules: static groups, or the field holding them, and the token claim with the caller's groups.
    public var groups: [String]
    public var groupsField: String?
    public var groupClaim: String?

    public init(
        allow: String, provider: String? = nil, operations: [String] = [], ownerField: String? = nil,
        identityClaim: String? = nil, groups: [String] = [], groupsField: String? = nil, groupClaim: String? = nil
    ) {
        self.allow = allow
        self.provider = provider
        self.operations = operations
        self.ownerField = ownerField
        self.identityClaim = identityClaim
        self.groups = groups
        self.groupsField = groupsField
        self.groupClaim = groupClaim
    }

    /// One line: `owner (userPools; ownerField owner, claim cognito:username): create, update, delete, read`.
    public var summary: String {
        var details: [String] = provider.map { [$0] } ?? []
        if let ownerField { details.append("ownerField \(ownerField)") }
        if !groups.isEmpty { details.append("groups " + groups.joined(separator: ", ")) }
        if let groupsField { details.append("groupsField \(groupsField)") }
        if let claim = identityClaim ?? groupClaim { details.append("claim \(claim)") }
        let head = allow + (details.isEmpty ? "" : " (" + details.joined(separator: "; ") + ")")
        return head + ": " + (operations.isEmpty ? "all operations" : operations.joined(separator: ", "))
    }
}

extension Model {
    /// The fields the owner rules keep owners in (`owner` unless a rule names another), then the fields dynamic
    /// group rules keep groups in; each once, in rule order.
    public var ownerFieldNames: [String] {
        var names: [String] = []
        for rule in authRules {
            let name = rule.allow == "owner" ? rule.ownerField ?? "owner" : rule.allow == "groups" ? rule.groupsField : nil
            if let name, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Adds the owner fields that the rules name but the schema does not declare, as the transformer adds them to
    /// the type (`owner: String`, `[String]` for a groups field): set by the server, so not in the create input.
    /// Amplify JS selects them in every document, and AppSync's subscriptions for owners filter on them, so a
    /// mutation that leaves them out is never heard by the records' owners.
    mutating func addImplicitOwnerFields() {
        for name in ownerFieldNames where field(named: name) == nil {
            let isGroups = authRules.contains { $0.allow == "groups" && $0.groupsField == name }
            fields.append(ModelField(name: name, type: .scalar("String"), isArray: isGroups, isReadOnly: true))
        }
    }
}

/// A custom query, mutation or subscription the schema declares besides the models' own operations.
public struct CustomOperation: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case query, mutation, subscription
    }

    public var kind: Kind
    public var name: String
    /// What it returns, as a field: its type, list-ness and non-null-ness.
    public var result: ModelField
    public var arguments: [ModelField]

    public init(kind: Kind, name: String, result: ModelField, arguments: [ModelField]) {
        self.kind = kind
        self.name = name
        self.result = result
        self.arguments = arguments
    }
}

extension ModelField {
    /// The GraphQL type: `String!`, `[String!]`, `PostStatus`, `[Comment]!`.
    public var graphQLType: String {
        let element = type.description + (isRequired ? "!" : "")
        guard isArray else { return element }
        return "[\(element)]" + (isArrayNullable ? "" : "!")
    }
}
