/// A GraphQL request ready to send: the printed document, its variables, and where the result sits.
///
/// The request builder makes one for each model command; `gqlc raw` makes one from a parsed file.
public struct GraphQLRequest: Sendable, Equatable {
    /// The document text, printed by ``DocumentPrinter``.
    public var query: String
    /// The variables; every user-supplied value travels here, never in `query`.
    public var variables: JSONObject
    /// Sent as `operationName` when set.
    public var operationName: String?
    /// The kind of operation; mutations are not retried by default.
    public var operationType: OperationType
    /// The path of the result inside `data`, as in Amplify's `decodePath` (e.g. `["getPost"]`).
    public var decodePath: [String]
    /// Whether the caller chose ``decodePath`` (``RequestBuilder/raw(document:fileName:variables:operationName:decodePath:)``):
    /// a response whose data lacks it is then ``RequestOutcome/pathNotFound(_:)``, the path's problem, rather than
    /// an invalid response.
    public var decodePathIsGiven = false

    public init(
        query: String, variables: JSONObject = JSONObject(), operationName: String? = nil,
        operationType: OperationType = .query, decodePath: [String] = []
    ) {
        self.query = query
        self.variables = variables
        self.operationName = operationName
        self.operationType = operationType
        self.decodePath = decodePath
    }

    /// The JSON body that is POSTed: `{"query", "variables"[, "operationName"]}`.
    public var body: JSONValue {
        var object: JSONObject = ["query": .string(query), "variables": .object(variables)]
        if let operationName { object["operationName"] = .string(operationName) }
        return .object(object)
    }
}
