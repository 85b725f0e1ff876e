/// Creates one record. A create always carries its key (a generated `id`), so it is safe to send again: a retried
/// create that the server refuses because the key exists is read back, and reported as applied when the record
/// holds what was sent (the first attempt's answer was lost).
///
/// Ends `.success` with the record (also after such a read-back), `.graphQLErrors` when the server refused it
/// (with `.recordAlreadyExists` when a record has the key), else the request's failure; after an attempt without
/// an answer it reports `.writeMayHaveBeenApplied` with the key it sent.
public struct CreateOperation: Sendable {
    /// The model of the record.
    public let model: String
    /// The create mutation.
    public let request: GraphQLRequest
    /// Whether the create may be sent again after an attempt without an answer.
    public var mayRetry = false
    /// Whether the caller lets writes be sent again after an attempt without an answer: a create always may be then,
    /// as it carries its key (generated for `id`), so a retry cannot make a duplicate.
    public var retriesMutations: Bool {
        get { mayRetry }
        set { mayRetry = RetryPolicy.mayRetry(.mutation, retryMutations: newValue, mutationIsIdempotent: true) }
    }
    /// Whether the response envelope is reported as the server sent it, instead of the record.
    public var reportsEnvelope = false
    /// A get of the key sent, to read the record back; nil when the model has none.
    let lookup: GraphQLRequest?
    /// The model's key fields, in key order.
    let keyFields: [String]
    /// The key sent, by field.
    let sentKey: JSONObject

    /// Checks the values against the schema and builds the request; throws what is wrong with them.
    public init(_ model: String, values: RecordValues, fields: FieldSelection = .all, builder: RequestBuilder) throws(RequestBuildError) {
        self.model = model
        request = try builder.create(model, values: values, fields: fields)
        keyFields = builder.schema.models[model]?.primaryKey.fields ?? []
        sentKey = request.inputKey(fields: keyFields)
        lookup = try? builder.get(model, key: .values(sentKey))
    }

    /// Sends the create through `context`'s client and reports the record (or why there is none) to `events`.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        var single = SingleRequest(request: request, nullIsNotFound: false, expectsRecord: true, reportsEnvelope: reportsEnvelope)
        single.mayRetry = mayRetry
        return single.run(
            client: context.client, events: events, success: { value in
                _ = events(.result(value))
                return .success
            }, notFound: {},
            unanswered: { error in
                guard let cause = UncertainWrite.Cause(error) else { return }
                _ = events(.writeMayHaveBeenApplied(UncertainWrite(model: model, key: sentKeyText, cause: cause, retried: mayRetry)))
            },
            refused: { errors, retried in
                // The create resolver's condition is that no record has the key yet.
                guard errors.contains(where: \.isConditionFailure) else { return nil }
                if retried {
                    let refused = RefusedWrite(operation: .create, sent: request.variables["input"], key: sentKey, lookup: lookup)
                    if case .applied(let record) = refused.check(client: context.client) {
                        _ = events(.appliedAfterRetry(.create))
                        _ = events(.result(record))
                        return .success
                    }
                }
                _ = events(.graphQLErrors(errors))
                _ = events(.recordAlreadyExists(model: model))
                if retried { _ = events(.ownAttemptMayBeWhy(.create, model: model, key: sentKey)) }
                return .graphQLErrors
            })
    }

    /// The key fields and values sent (a generated id included), in key order, as text; empty when any is missing.
    var sentKeyText: [KeyValueText] {
        guard case .object(let input)? = request.variables["input"] else { return [] }
        var key: [KeyValueText] = []
        for field in keyFields {
            switch input[field] {
            case .string(let text)?: key.append(KeyValueText(field: field, value: text))
            case .number(let number)?: key.append(KeyValueText(field: field, value: number.text))
            default: return []
            }
        }
        return key
    }
}

/// A write sent without an answer (a timeout, a dropped connection): it may have been applied.
public struct UncertainWrite: Sendable {
    /// Why there was no answer.
    public enum Cause: Sendable {
        case timeout, network

        /// The cause of `error` when the write may have reached the server; nil when it cannot have.
        init?(_ error: ExecutionError) {
            switch error {
            case .transport(.timeout, _): self = .timeout
            case .transport(.network, _): self = .network
            default: return nil
            }
        }
    }

    /// The model of the record.
    public let model: String
    /// The key sent, in key order (empty when some key field was not sent as text or a number).
    public let key: [KeyValueText]
    public let cause: Cause
    /// Whether the write was already allowed to be sent again.
    public let retried: Bool
}

/// One key field and its value as text.
public struct KeyValueText: Sendable, Equatable {
    public let field: String
    public let value: String

    public init(field: String, value: String) {
        self.field = field
        self.value = value
    }
}

extension GraphQLRequest {
    /// The given key fields of a mutation's `input`, in key order (those it lacks left out).
    public func inputKey(fields: [String]) -> JSONObject {
        var key = JSONObject()
        guard case .object(let input)? = variables["input"] else { return key }
        for field in fields { if let value = input[field] { key[field] = value } }
        return key
    }
}
