/// Updates one record, by its key, with the values given (and an optional condition).
///
/// On a model with conflict detection the record's `_version` is sent: the one expected, else read with one get
/// first. A write refused by its condition is told apart: a record that does not exist (`.notFound`), a false
/// condition, or, after gqlc's own retry, its first attempt having been applied (read back, `.success`). A conflict
/// is reported as `.versionConflict`, an auto-merge as `.autoMerged`. Ends as ``SingleRequest`` does otherwise.
public struct UpdateOperation: RecordChangeOperation {
    /// The update as built: its request, the reads it needs, its condition.
    public var change: RecordChange

    /// Checks the values, condition and fields against the schema and builds the request; throws what is wrong.
    /// `expectedVersion` is sent as the `_version` of a model with conflict detection (ignored for other models).
    public init(
        _ model: String, key: KeyInput, values: RecordValues, condition: FilterInput = .none, fields: FieldSelection = .all,
        expectedVersion: Int? = nil, builder: RequestBuilder
    ) throws(RequestBuildError) {
        // The values alone first: a bad value is named before a bad condition.
        _ = try builder.update(model, key: key, values: values)
        change = try RecordChange(
            .update, model, key: key, values: values, condition: condition, fields: fields, expectedVersion: expectedVersion,
            builder: builder)
    }

    /// Reads the version if needed, sends the update through `context`'s client and reports what happened.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        change.run(in: context, events: events)
    }
}

/// Deletes one record by its key (with an optional condition), then reports the records of other models left
/// pointing at it (``OperationEvent/recordsLeftPointing(model:association:relatedModel:key:)``), read through the
/// same client. On a model with conflict detection the record's `_version` is sent (as for ``UpdateOperation``)
/// and the delete is reported as soft.
public struct DeleteOperation: RecordChangeOperation {
    /// The delete as built: its request, the reads it needs, its condition.
    public var change: RecordChange

    /// Checks the key, condition and fields against the schema and builds the request; throws what is wrong.
    public init(
        _ model: String, key: KeyInput, condition: FilterInput = .none, fields: FieldSelection = .all,
        expectedVersion: Int? = nil, builder: RequestBuilder
    ) throws(RequestBuildError) {
        _ = try builder.delete(model, key: key)
        change = try RecordChange(
            .delete, model, key: key, values: RecordValues(), condition: condition, fields: fields,
            expectedVersion: expectedVersion, builder: builder)
    }

    /// Reads the version if needed, sends the delete through `context`'s client, reports what happened and, once
    /// it succeeded, the records left pointing at the deleted one.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        let kind = change.run(in: context, events: events)
        if kind == .success { change.reportOrphans(in: context, events: events) }
        return kind
    }
}

/// An update or a delete of one record: the request it sends and how it is sent.
public protocol RecordChangeOperation: Sendable {
    /// The change as built: its request, the reads it needs, its condition.
    var change: RecordChange { get set }
    /// Sends the change through `context`'s client and reports what happened to `events`.
    func run(in context: APIContext, events: OperationEventSink) -> ResultKind
}

extension RecordChangeOperation {
    /// The mutation as it is sent when no version has to be read (what a dry run shows).
    public var request: GraphQLRequest { change.request }
    /// Whether `run` reads the record's `_version` first (conflict detection, and no version expected).
    public var readsVersion: Bool { change.versionLookup != nil }
    /// Whether a write that is not safe to repeat may still be sent again after an attempt without an answer.
    public var retriesMutations: Bool {
        get { change.retriesMutations }
        set { change.retriesMutations = newValue }
    }
    /// Whether the response envelope is reported as the server sent it, instead of the record.
    public var reportsEnvelope: Bool {
        get { change.reportsEnvelope }
        set { change.reportsEnvelope = newValue }
    }
}

/// What an update and a delete of one record share: the version read, the send, and what a refusal means.
public struct RecordChange: Sendable {
    let operation: BulkOperation
    let model: String
    let key: KeyInput
    let values: RecordValues
    let condition: FilterInput
    let fields: FieldSelection
    /// The mutation, with the expected version (or none).
    let request: GraphQLRequest
    /// A get of the key fields and `_version`, when the version must be read first.
    let versionLookup: GraphQLRequest?
    /// With a condition: a get that tells a missing record from a false condition (nil without one, or without get).
    let conditionLookup: GraphQLRequest?
    /// Whether the model has conflict detection.
    let versioned: Bool
    /// The model's key fields, in key order.
    let keyFields: [String]
    var retriesMutations = false
    var reportsEnvelope = false

    init(
        _ operation: BulkOperation, _ model: String, key: KeyInput, values: RecordValues, condition: FilterInput,
        fields: FieldSelection, expectedVersion: Int?, builder: RequestBuilder
    ) throws(RequestBuildError) {
        (self.operation, self.model, self.key, self.values, self.condition, self.fields) =
            (operation, model, key, values, condition, fields)
        let described = builder.schema.models[model]
        versioned = described?.conflictDetection != nil
        keyFields = described?.primaryKey.fields ?? []
        versionLookup = versioned && expectedVersion == nil
            ? try builder.get(model, key: key, include: [], fields: .keysOnly) : nil
        conditionLookup = condition.isEmpty ? nil : try? builder.get(model, key: key, include: [])
        request = try Self.build(
            operation, model, key: key, values: values, condition: condition, fields: fields,
            version: versioned ? expectedVersion : nil, builder: builder)
    }

    private static func build(
        _ operation: BulkOperation, _ model: String, key: KeyInput, values: RecordValues, condition: FilterInput,
        fields: FieldSelection, version: Int?, builder: RequestBuilder
    ) throws(RequestBuildError) -> GraphQLRequest {
        operation == .delete
            ? try builder.delete(model, key: key, condition: condition, fields: fields, version: version)
            : try builder.update(model, key: key, values: values, condition: condition, fields: fields, version: version)
    }

    /// `Post with key 'p1'`.
    var described: String { key.described(model: model) }

    func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        var request = self.request
        if let versionLookup {
            switch readVersion(versionLookup, client: context.client, events: events) {
            case .failure(let stop): return stop.kind
            case .success(let version):
                // A version cannot make a request that built without one fail.
                request = (try? Self.build(
                    operation, model, key: key, values: values, condition: condition, fields: fields, version: version,
                    builder: context.builder)) ?? request
            }
        }
        let sentVersion = request.variables["input"]?.objectValue?[ConflictDetection.versionField].flatMap { value in
            ConflictDetection.version(of: .object([ConflictDetection.versionField: value]))
        }
        var single = SingleRequest(request: request, nullIsNotFound: true, expectsRecord: true, reportsEnvelope: reportsEnvelope)
        single.mayRetry = RetryPolicy.mayRetry(
            .mutation, retryMutations: retriesMutations, mutationIsIdempotent: !condition.isEmpty)
        return single.run(
            client: context.client, events: events,
            success: { value in
                reportVersioned(value, sent: sentVersion, events: events)
                _ = events(.result(value))
                return .success
            },
            notFound: { _ = events(.notFound(described: described)) },
            refused: { errors, retried in refused(errors, retried: retried, request: request, client: context.client, events: events) })
    }

    /// How a read of the version stopped the write.
    struct VersionStop: Error {
        let kind: ResultKind
    }

    /// The record's `_version`, read with one get; the reason is reported when there is none to send.
    private func readVersion(_ lookup: GraphQLRequest, client: GraphQLClient, events: OperationEventSink) -> Result<Int, VersionStop> {
        let outcome: RequestOutcome
        do {
            outcome = try client.execute(lookup).outcome(decodePath: lookup.decodePath, nullIsNotFound: true)
        } catch let error as ExecutionError {
            _ = events(.requestFailed(error))
            return .failure(VersionStop(kind: error.kind))
        } catch {
            if let error = error as? InvalidResponseError { _ = events(.invalidResponse(error)) }
            return .failure(VersionStop(kind: .httpError))
        }
        switch outcome {
        case .success(let value):
            if let note = ConflictDetection.deletedNote(value) {
                _ = events(.writeTargetDeleted(operation, described: described, note: note))
                return .failure(VersionStop(kind: .notFound))
            }
            guard let version = ConflictDetection.version(of: value) else {
                _ = events(.versionNotReceived(described: described))
                return .failure(VersionStop(kind: .graphQLErrors))
            }
            return .success(version)
        case .notFound:
            _ = events(.notFound(described: described))
            return .failure(VersionStop(kind: .notFound))
        case .partial(_, let errors), .failed(let errors):
            _ = events(.graphQLErrors(errors))
            _ = events(.versionNotRead(described: described))
            return .failure(VersionStop(kind: .graphQLErrors))
        case .pathNotFound:
            return .failure(VersionStop(kind: outcome.kind))
        }
    }

    /// After a write of a model with conflict detection: a delete is soft; an update whose version moved by more
    /// than one was auto-merged by the server.
    private func reportVersioned(_ value: JSONValue, sent: Int?, events: OperationEventSink) {
        guard versioned else { return }
        let version = ConflictDetection.version(of: value)
        if operation == .delete {
            _ = events(.softDeleted(described: described, version: version))
        } else if let sent, let version, version > sent + 1 {
            _ = events(.autoMerged(version: version, sent: sent))
        }
    }

    /// What a write answered with errors only comes to: a conflict, a missing record, a false condition, or (after
    /// gqlc's own retry) its first attempt applied; nil leaves the errors as they are.
    ///
    /// A failed condition without a condition of the caller's means the record does not exist (the transformer's
    /// only condition is existence). With one, one get tells a missing record from a false condition.
    private func refused(
        _ errors: [GraphQLError], retried: Bool, request: GraphQLRequest, client: GraphQLClient, events: OperationEventSink
    ) -> ResultKind? {
        let input = request.variables["input"]?.objectValue ?? [:]
        if versioned, let conflict = VersionConflict.find(in: errors, input: input, keyFields: keyFields) {
            _ = events(.versionConflict(described: described, conflict))
            return .graphQLErrors
        }
        guard errors.contains(where: \.isConditionFailure) else { return nil }
        guard !condition.isEmpty else {
            _ = events(.notFound(described: described))
            return .notFound
        }
        let sentKey = request.inputKey(fields: keyFields)
        var mayBeOwnAttempt = false
        if retried {
            // The condition may have been true for gqlc's first attempt, which changed the record.
            let refusal = RefusedWrite(operation: operation, sent: request.variables["input"], key: sentKey, lookup: conditionLookup)
            switch refusal.check(client: client) {
            case .applied(let record):
                _ = events(.appliedAfterRetry(operation))
                _ = events(.result(record))
                return .success
            case .missing:
                _ = events(.notFound(described: described))
                return .notFound
            case .differs where operation == .delete:
                break  // still there: the first attempt did not delete it either
            case .differs, .unknown:
                mayBeOwnAttempt = true
            }
            _ = events(.graphQLErrors(errors))
            _ = events(.conditionFalse(described: described))
            if mayBeOwnAttempt { _ = events(.ownAttemptMayBeWhy(operation, model: model, key: sentKey)) }
            return .graphQLErrors
        }
        switch conditionLookup.flatMap({ Self.exists($0, client: client) }) {
        case false?:
            _ = events(.notFound(described: described))
            return .notFound
        case true?:
            _ = events(.graphQLErrors(errors))
            _ = events(.conditionFalse(described: described))
        case nil:
            _ = events(.graphQLErrors(errors))
            _ = events(.conditionFalseOrMissing(described: described))
        }
        return .graphQLErrors
    }

    /// Whether the record `lookup` gets exists; nil when the lookup itself failed.
    private static func exists(_ lookup: GraphQLRequest, client: GraphQLClient) -> Bool? {
        guard let response = try? client.execute(lookup),
            let outcome = try? response.outcome(decodePath: lookup.decodePath, nullIsNotFound: true)
        else { return nil }
        switch outcome {
        case .success: return true
        case .notFound: return false
        case .partial, .failed, .pathNotFound: return nil
        }
    }

    /// After a delete: which associations still point at the record (one listing of one record each), through the
    /// context's client. A check that fails says nothing: the delete itself is done.
    func reportOrphans(in context: APIContext, events: OperationEventSink) {
        let key = request.inputKey(fields: keyFields)
        guard let orphans = try? CascadeDelete(builder: context.builder, client: context.client).orphans(model: model, key: key)
        else { return }
        for orphan in orphans {
            _ = events(.recordsLeftPointing(model: model, association: orphan.field, relatedModel: orphan.model, key: key))
        }
    }
}
