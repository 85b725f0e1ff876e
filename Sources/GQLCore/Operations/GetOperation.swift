/// Fetches one record by its primary key, optionally with included associations whose has-many lists are
/// paged to their end through the same client.
///
/// Ends `.success` with the record, `.notFound` when no record has the key (or it is soft-deleted and not
/// asked for), `.partial` when data came with errors or an included list could not be completed (the record
/// is still reported), else the request's failure.
public struct GetOperation: Sendable {
    /// The model of the record.
    public let model: String
    /// The record's key, as the user gave it.
    public let key: KeyInput
    /// The request that fetches the record (with the first page of each included list).
    public let request: GraphQLRequest
    /// The included associations, for following their lists.
    public let include: IncludeTree
    /// The selection, which follow-up pages make too.
    public let fields: FieldSelection
    /// Whether included has-many lists are paged to their end (false: their first page only).
    public var followIncludedLists = true
    /// Whether a soft-deleted record is reported instead of ending `.notFound`.
    public var includeDeleted = false
    /// Whether the response envelope is reported as the server sent it, instead of the record.
    public var reportsEnvelope = false
    /// The page size of an included list's further pages.
    public var includedPageSize = Defaults.includedPageSize

    /// Checks the arguments against the schema and builds the request; throws what is wrong with them.
    public init(
        _ model: String, key: KeyInput, includes: [String] = [], fields: FieldSelection = .all, builder: RequestBuilder
    ) throws(RequestBuildError) {
        self.model = model
        self.key = key
        self.fields = fields
        request = try builder.get(model, key: key, include: includes, fields: fields)
        include = try builder.includeTree(model, paths: includes)
    }

    /// `Post with key 'p1'`, as events and messages name the record.
    public var described: String { key.described(model: model) }

    /// Sends the request through `context`'s client and reports the record (or why there is none) to `events`.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        let hidesDeleted = context.schema.models[model]?.conflictDetection != nil && !includeDeleted
        let included = IncludedLists(model: model, include: followIncludedLists ? include : IncludeTree(), fields: fields, pageSize: includedPageSize)
        return SingleRequest(request: request, nullIsNotFound: true, expectsRecord: true, reportsEnvelope: reportsEnvelope)
            .run(client: context.client, events: events) { value in
                if hidesDeleted, let note = ConflictDetection.deletedNote(value) {
                    _ = events(.deletedRecordHidden("\(described) was \(note)"))
                    return .notFound
                }
                return included.report(value, context: context, events: events)
            } notFound: {
                _ = events(.notFound(described: described))
            }
    }
}

/// The included has-many lists of a result, paged to their end before it is reported.
struct IncludedLists {
    /// The model of the result; nil when it is no model's (nothing to follow).
    let model: String?
    /// What to follow (empty: nothing).
    let include: IncludeTree
    let fields: FieldSelection
    let pageSize: Int

    /// Reports `value` with its included lists complete: `.success`; or, when a list cannot be completed, `value`
    /// as it came and why: `.partial`.
    func report(_ value: JSONValue, context: APIContext, events: OperationEventSink) -> ResultKind {
        guard let model, !include.isEmpty else {
            _ = events(.result(value))
            return .success
        }
        let completer = ConnectionCompleter(builder: context.builder, pageLimit: pageSize, client: context.client)
        do {
            _ = events(.result(try completer.complete(value, model: model, include: include, fields: fields)))
            return .success
        } catch {
            // The result is still worth having: report it, then what is missing.
            _ = events(.result(value))
            _ = events(.includedListFailed(IncludedListFailure(error)))
            return .partial
        }
    }
}

/// One request whose answer is one value: sent, classified and reported; the step `get` (and a listing that
/// reports the envelope of its first page) is made of.
struct SingleRequest {
    let request: GraphQLRequest
    /// A null result means no record has the key.
    let nullIsNotFound: Bool
    /// The result should be a record: anything but an object or null is the server's fault.
    let expectsRecord: Bool
    /// Report the envelope as received instead of the result.
    let reportsEnvelope: Bool
    /// Whether a failed attempt may be sent again (not for a write that may not be idempotent).
    var mayRetry = true

    /// Sends the request; `success` reports a result and says how the operation ended, `notFound` reports that no
    /// record has the key.
    /// `unanswered` may report more after a request without a usable answer; `refused` may take over the errors of a
    /// failed answer (given whether it came after more than one attempt), returning how the operation ended.
    func run(
        client: GraphQLClient, events: OperationEventSink, success: (JSONValue) -> ResultKind, notFound: () -> Void,
        unanswered: (ExecutionError) -> Void = { _ in }, refused: ([GraphQLError], Bool) -> ResultKind? = { _, _ in nil }
    ) -> ResultKind {
        let response: GraphQLResponse
        do {
            response = try client.execute(request, mayRetry: mayRetry)
        } catch {
            _ = events(.requestFailed(error))
            unanswered(error)
            return error.kind
        }
        let outcome: RequestOutcome
        do {
            outcome = try response.outcome(
                decodePath: request.decodePath, nullIsNotFound: nullIsNotFound, pathIsGiven: request.decodePathIsGiven)
        } catch {
            if reportsEnvelope { _ = events(.envelope(response.printableEnvelope)) }
            _ = events(.invalidResponse(error))
            return .httpError
        }
        if case .pathNotFound(let missing) = outcome {
            // The data is there but not at the path the caller gave: the path's problem, not the server's.
            if reportsEnvelope { _ = events(.envelope(response.printableEnvelope)) }
            _ = events(.decodePathNotFound(request.decodePath, missing))
            return outcome.kind
        }
        if reportsEnvelope {
            _ = events(.envelope(response.printableEnvelope))
            _ = events(.graphQLErrors(response.errors))
            return outcome.kind
        }
        if expectsRecord, let problem = outcome.recordShapeProblem(at: request.decodePath) {
            if case .partial(_, let errors) = outcome { _ = events(.graphQLErrors(errors)) }
            _ = events(.invalidResponse(problem))
            return .httpError
        }
        switch outcome {
        case .success(let value):
            return success(value)
        case .notFound:
            notFound()
            return .notFound
        case .partial(let value, let errors):
            _ = events(.result(value))
            _ = events(.graphQLErrors(errors))
            return .partial
        case .failed(let errors):
            if let kind = refused(errors, response.attempts > 1) { return kind }
            _ = events(.graphQLErrors(errors))
            return .graphQLErrors
        case .pathNotFound:
            return outcome.kind  // reported above
        }
    }
}

extension KeyInput {
    /// `Post with key 'p1'`, `InventoryItem with key sku=A-1, warehouseId=w1`.
    public func described(model: String) -> String {
        switch self {
        case .id(let value): return "\(model) with key '\(value)'"
        case .fields(let pairs): return "\(model) with key " + pairs.joined(separator: ", ")
        case .values(let object): return "\(model) with key " + object.members.map { "\($0.key)=\($0.value.serialized(.compact))" }.joined(separator: ", ")
        }
    }
}

extension GraphQLResponse {
    /// The response as received (its `data` alone when the envelope was not kept).
    public var printableEnvelope: JSONValue {
        envelope ?? .object(["data": data ?? .null])
    }
}
