/// What an operation reports as it runs, in order; the caller renders each event as it arrives.
///
/// Events carry values and typed errors, never printed text: a command-line program phrases them (naming its
/// flags), a Swift program may collect them. The operation's ``ResultKind`` says how it ended.
public enum OperationEvent: Sendable {
    /// The single result of a request for one record: the record, or null (printed with the errors of a
    /// partial answer).
    case result(JSONValue)
    /// A page of listed records, in order; an empty page is never reported.
    case records([JSONValue])
    /// A write refused after gqlc sent it again had been applied by its first attempt, whose answer was lost; the
    /// record as read back (a delete: its key) follows as `.result`.
    case appliedAfterRetry(BulkOperation)
    /// A create was refused because `model` already has a record with its key.
    case recordAlreadyExists(model: String)
    /// The refused write was sent again after an attempt without an answer: that attempt may be why.
    case ownAttemptMayBeWhy(BulkOperation, model: String, key: JSONObject)
    /// A write had no answer and may have been applied (after the request's failure).
    case writeMayHaveBeenApplied(UncertainWrite)
    /// The records are over: `complete` when the listing ended well (at its end or its limit), so that a
    /// listing that received none may still say "no records"; not when it stopped early.
    case recordsEnded(complete: Bool)
    /// How many records a count found, having read every page.
    case count(Int)
    /// The response as the server sent it, when the caller asked for the envelope instead of the result.
    case envelope(JSONValue)
    /// The server's GraphQL errors, each with its message and path.
    case graphQLErrors([GraphQLError])
    /// A request had no usable answer (network, timeout, HTTP status, not GraphQL, cancelled).
    case requestFailed(ExecutionError)
    /// The answer is not what the schema promises (a record that is a list or a string).
    case invalidResponse(InvalidResponseError)
    /// No record has the key: `Post with key 'p1'`.
    case notFound(described: String)
    /// The record exists but is soft-deleted, so it is not reported: `Post with key 'p1' was deleted at …`.
    case deletedRecordHidden(String)
    /// Following an included has-many list failed; the records before it were reported with their first page.
    case includedListFailed(IncludedListFailure)
    /// Stopped by cancellation after reporting `delivered` records.
    case interrupted(delivered: Int)
    /// A count stopped by cancellation, after `counted` records on `pages` pages.
    case countInterrupted(counted: Int, pages: Int)
    /// A count stopped before the end of the listing (the reason follows): `counted` is a lower bound.
    case countIncomplete(counted: Int)
    /// Where an unfinished listing resumes: a token to start the same listing from.
    case resumePoint(String)
    /// The server refused the first page at the resume point the listing was given; it is not handed back.
    case resumePointRefused
    /// The server repeated a `nextToken`: there is no safe point to resume from.
    case noResumePoint
    /// A sync read every page: what changed after `startedAt` (milliseconds) is what the next sync reads.
    case syncedUntil(String)
    /// A sync stopped before its end (the reason was reported): the next sync starts where this one did.
    case syncIncomplete
    /// The record an update or delete is for is soft-deleted (conflict detection): `note` says when; nothing was sent.
    case writeTargetDeleted(BulkOperation, described: String, note: String)
    /// The server sent no `_version` for the record to write; nothing was sent.
    case versionNotReceived(described: String)
    /// Reading the record's `_version` failed (its errors came first); nothing was changed.
    case versionNotRead(described: String)
    /// The conflict handler refused the write: someone else changed the record; nothing was changed.
    case versionConflict(described: String, VersionConflict)
    /// The write's own condition is false for the record, which exists (the server's errors came first).
    case conditionFalse(described: String)
    /// The write's own condition is false, or no record has the key (the read that would tell failed).
    case conditionFalseOrMissing(described: String)
    /// A delete under conflict detection is soft: the record stays, `_deleted`, at `version`, until its TTL expires.
    case softDeleted(described: String, version: Int?)
    /// The server auto-merged a stale update into `version` (`sent` was sent): the record reported is the merged one.
    case autoMerged(version: Int, sent: Int)
    /// After a delete: records of `relatedModel` (through `model`'s `association`) still point at the deleted key.
    case recordsLeftPointing(model: String, association: String, relatedModel: String, key: JSONObject)
    /// The data has no value at the decode path the caller gave (a null on the way, a field of another type).
    case decodePathNotFound([String], DecodePathError)
}

/// Why following an included has-many list failed.
public enum IncludedListFailure: Error, Sendable, ParameterizedMessage {
    /// The server answered a further page with GraphQL errors.
    case errors([GraphQLError])
    /// A further page's request had no usable answer.
    case request(ExecutionError)
    /// The next page's request could not be built, or its answer was not a connection.
    case build(RequestBuildError)
    /// The answer was not a GraphQL response.
    case response(InvalidResponseError)
    /// Any other failure, as text.
    case other(String)

    /// Classifies what a ``ConnectionCompleter`` threw.
    public init(_ error: any Error) {
        switch error {
        case let failure as IncludedPageError: self = .errors(failure.errors)
        case let failure as ExecutionError: self = .request(failure)
        case let failure as RequestBuildError: self = .build(failure)
        case let failure as InvalidResponseError: self = .response(failure)
        default: self = .other("\(error)")
        }
    }

    /// Why, in one line: the first GraphQL error, or the request's failure with its options named by `name` and its
    /// remedy said by `remedy`.
    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String {
        switch self {
        case .errors(let errors): errors.first?.description ?? "unknown error"
        case .request(let error): error.message(naming: name, remedy: remedy)
        case .build(let error): error.message(naming: name, remedy: remedy)
        case .response(let error): error.description
        case .other(let text): text
        }
    }

    public func message(naming name: (Parameter) -> String) -> String { message(naming: name, remedy: \.label) }
}

/// Receives an operation's events; false when records could not be delivered (the output is gone), which stops
/// the operation as soon as it can.
public typealias OperationEventSink = (OperationEvent) -> Bool
