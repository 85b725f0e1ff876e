/// Calls one of the schema's custom queries or mutations with typed arguments, and, when it returns a model's
/// records, follows their included has-many lists to their end through the same client.
///
/// Ends `.success` with the result (which may be null), `.partial` when data came with errors or an included list
/// could not be completed (the result is still reported), else the request's failure. A custom mutation may not be
/// idempotent, so a failed attempt is never sent again.
public struct CustomOperationCall: Sendable {
    /// The operation called, as the schema declares it.
    public let operation: CustomOperation
    /// The request that calls it.
    public let request: GraphQLRequest
    /// The included associations of a model result, for following their lists.
    public let include: IncludeTree
    /// Whether included has-many lists are paged to their end (false: their first page only).
    public var followIncludedLists = true
    /// Whether the response envelope is reported as the server sent it, instead of the result.
    public var reportsEnvelope = false

    /// Finds the operation `name` of `kind` in the schema and builds its request from `arguments`; throws what is
    /// wrong with them.
    public init(
        _ name: String, kind: CustomOperation.Kind, arguments: RecordValues = RecordValues(), includes: [String] = [],
        fields: FieldSelection = .all, builder: RequestBuilder
    ) throws(RequestBuildError) {
        request = try builder.custom(name, kind: kind, arguments: arguments, include: includes, fields: fields)
        operation = try builder.customOperation(name, kind: kind)
        include = try builder.customIncludeTree(operation, paths: includes)
    }

    /// Sends the request through `context`'s client and reports the result to `events`.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        var resultModel: String?
        if case .model(let name) = operation.result.type { resultModel = name }
        let included = IncludedLists(
            model: resultModel, include: followIncludedLists ? include : IncludeTree(), fields: .all,
            pageSize: Defaults.includedPageSize)
        var single = SingleRequest(request: request, nullIsNotFound: false, expectsRecord: false, reportsEnvelope: reportsEnvelope)
        single.mayRetry = operation.kind == .query
        return single.run(client: context.client, events: events) { value in
            included.report(value, context: context, events: events)
        } notFound: {}
    }
}
