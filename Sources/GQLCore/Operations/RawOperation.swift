/// Sends a GraphQL document written by hand, to any GraphQL server: parsed and checked locally first
/// (``RequestBuilder/raw(document:fileName:variables:operationName:decodePath:)``), then sent once and its result
/// reported at the decode path.
///
/// Ends `.success` with the result, `.partial` when data came with errors, `.graphQLErrors` when the data lacks the
/// decode path given (``OperationEvent/decodePathNotFound(_:_:)``), else the request's failure. A query is retried
/// as any query; a mutation only when ``retriesMutations`` (nothing tells whether repeating it is safe). A
/// subscription is not sent this way: its request is run by ``RealtimeSubscriber``.
public struct RawOperation: Sendable {
    /// The request, with the whole document and the chosen operation's name.
    public let request: GraphQLRequest
    /// The variables given that the chosen operation does not declare: they are sent, and servers ignore them.
    public let undeclaredVariables: [VariableProblem]
    /// Whether a mutation may be sent again after an attempt without an answer.
    public var retriesMutations = false
    /// Whether the response envelope is reported as the server sent it, instead of the result.
    public var reportsEnvelope = false

    /// Parses and checks `document` with its variables; throws what is wrong with them. Nothing is sent.
    public init(
        document: String, fileName: String? = nil, variables: JSONObject, operationName: String? = nil,
        decodePath: [String] = []
    ) throws(RawRequestError) {
        request = try RequestBuilder.raw(
            document: document, fileName: fileName, variables: variables, operationName: operationName, decodePath: decodePath)
        undeclaredVariables = RequestBuilder.undeclaredVariables(document: document, variables: variables, operationName: operationName)
    }

    /// Sends the request through `context`'s client and reports the result to `events`.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        var single = SingleRequest(request: request, nullIsNotFound: false, expectsRecord: false, reportsEnvelope: reportsEnvelope)
        single.mayRetry = RetryPolicy.mayRetry(request.operationType, retryMutations: retriesMutations, mutationIsIdempotent: false)
        return single.run(client: context.client, events: events) { value in
            _ = events(.result(value))
            return .success
        } notFound: {}
    }
}
