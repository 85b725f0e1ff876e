/// A setting or argument that an error message refers to: the key of a get, an include path, the timeout.
///
/// The core names each in its own words (``label``). A front end names them its own way (a command line
/// by its flags) through ``ParameterizedMessage/message(naming:)``, so the core never speaks its syntax.
public enum Parameter: Sendable, Equatable, CaseIterable {
    /// The value of a single-field key.
    case id
    /// One `FIELD=VALUE` of a key.
    case key
    /// A relationship path to select in full.
    case include
    /// A field path to select (`title`, `comments.items.content`).
    case fields
    /// A whole input object.
    case input
    /// One `field=value` or `field:=JSON` value of a create or update; it has no name of its own.
    case fieldValue
    /// A filter expression (`rating>3`).
    case filter
    /// A filter given as a JSON object.
    case filterObject
    /// A mutation's condition, as an expression or a JSON object.
    case condition
    /// A secondary index to query.
    case index
    /// The operation of a document to send.
    case operationName
    /// Seconds to wait for a response.
    case timeout
    /// How many times to retry.
    case retries
    /// The most a response may hold.
    case maxResponseSize
    /// The AWS region to sign for.
    case region
    /// The AWS shared-credentials profile.
    case profile
    /// The AppSync API key.
    case apiKey
    /// The bearer token.
    case authToken
    /// IAM (SigV4) auth.
    case iam
    /// The real-time (WebSocket) endpoint of subscriptions.
    case realtimeEndpoint
    /// The GraphQL endpoint URL.
    case endpoint
    /// The schema file.
    case schema
    /// The file of CA certificates to verify HTTPS servers with.
    case caFile
    /// The auth mode asked for.
    case authMode
    /// The Cognito user pool.
    case userPoolId
    /// The user pool's app client.
    case clientId
    /// Soft-deleted records shown too.
    case includeDeleted
    /// The token a listing resumes from.
    case nextToken
    /// When a sync starts reading changes.
    case since
    /// The `_version` a write sends instead of reading it.
    case expectedVersion
    /// A delete's children deleted with it.
    case cascade
    /// A dot path into a response's data to print.
    case decodePath
    /// One variable of a document (`NAME=VALUE`).
    case variable
    /// A file of a document's variables.
    case variablesFile
    /// The output format.
    case output

    /// The parameter in plain words, as the core's own messages use it.
    public var label: String {
        switch self {
        case .id: "id"
        case .key: "key"
        case .include: "include"
        case .fields: "fields"
        case .input: "input"
        case .fieldValue: ""
        case .filter: "filter"
        case .filterObject: "filter object"
        case .condition: "condition"
        case .index: "index"
        case .operationName: "operation name"
        case .timeout: "timeout"
        case .retries: "retries"
        case .maxResponseSize: "response size limit"
        case .region: "region"
        case .profile: "profile"
        case .apiKey: "API key"
        case .authToken: "auth token"
        case .iam: "IAM setting"
        case .realtimeEndpoint: "real-time endpoint"
        case .endpoint: "endpoint"
        case .schema: "schema file"
        case .caFile: "CA file"
        case .authMode: "auth mode"
        case .userPoolId: "user pool id"
        case .clientId: "app client id"
        case .includeDeleted: "deleted records setting"
        case .nextToken: "resume token"
        case .since: "sync start"
        case .expectedVersion: "expected version"
        case .cascade: "cascade setting"
        case .decodePath: "decode path"
        case .variable: "variable"
        case .variablesFile: "variables file"
        case .output: "output format"
        }
    }
}

/// An error whose message mentions parameters. Its `description` names them by ``Parameter/label``;
/// a front end calls ``message(naming:)`` with its own names.
public protocol ParameterizedMessage: CustomStringConvertible {
    /// The one-line message, with each parameter named by `name`.
    func message(naming name: (Parameter) -> String) -> String
    /// The message with each parameter named by `name` and each remedy (``Remedy``) said by `remedy`.
    func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String
    /// The message as ``message(naming:remedy:)``, where it lists the places a parameter is read from with the variable
    /// `variable` names for it (`GQLC_ENDPOINT`; nil for none).
    func message(naming name: (Parameter) -> String, variable: (Parameter) -> String?, remedy: (Remedy) -> String) -> String
}

extension ParameterizedMessage {
    /// The message in the core's words.
    public var description: String { message(naming: \.label) }

    /// The message of an error that names no remedy: as ``message(naming:)``.
    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String { message(naming: name) }

    /// The message of an error that names no variable: as ``message(naming:remedy:)``.
    public func message(naming name: (Parameter) -> String, variable: (Parameter) -> String?, remedy: (Remedy) -> String) -> String {
        message(naming: name, remedy: remedy)
    }
}
