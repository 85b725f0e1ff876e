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
}

extension ParameterizedMessage {
    /// The message in the core's words.
    public var description: String { message(naming: \.label) }

    /// The message of an error that names no remedy: as ``message(naming:)``.
    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String { message(naming: name) }
}
