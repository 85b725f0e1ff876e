extension OperationEvent {
    /// The event in words, with an option of the caller's named by `name` and a remedy said by `remedy`: `no Post with
    /// key 'p1'`, `the sync stopped before its end; run it again with the same sync start`. Nil for records and
    /// results, and for the events a program renders itself (errors, resume points, counts, interruptions).
    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String? {
        switch self {
        case .invalidResponse(let error): error.description
        case .notFound(let described): "no " + described
        case .recordAlreadyExists(let model): "hint: \(model) already has a record with this key"
        case .countInterrupted(let counted, let pages): "interrupted after counting \(counted) records on \(pages) pages"
        case .countIncomplete(let counted): "counted \(counted) records before the listing stopped; the count is incomplete"
        case .noResumePoint: "the server repeated a nextToken; there is no safe point to resume from"
        case .writeTargetDeleted(let operation, let described, let note):
            "\(described) was \(note); there is nothing to \(operation.rawValue)"
        case .versionNotRead(let described): "reading the _version of \(described) failed; nothing was changed"
        case .softDeleted(let described, let version):
            "note: the delete is soft: \(described) stays on the server with _deleted: true"
                + (version.map { " (_version \($0))" } ?? "") + " until its TTL expires"
        case .autoMerged(let version, let sent):
            "note: the server auto-merged this update into _version \(version) (\(sent) was sent, someone "
                + "else had changed the record): the record printed is the merged one"
        case .deletedRecordHidden(let note): "\(note); \(name(.includeDeleted)) prints it"
        case .resumePointRefused:
            "hint: the server refused the first page at \(name(.nextToken)); check that the token comes from a listing of "
                + "the same model, filter and index, or start without it"
        case .syncIncomplete: "the sync stopped before its end; run it again with the same \(name(.since))"
        case .versionNotReceived(let described): "the server sent no _version for \(described); \(remedy(.give(.expectedVersion)))"
        case .versionConflict(let described, let conflict):
            "conflict: \(described) was changed by someone else: \(conflict.summary); nothing was changed (get it again, or "
                + "pass \(name(.expectedVersion)) with the server's version to overwrite)"
        case .conditionFalse(let described): "the \(name(.condition)) condition is false for \(described)"
        case .conditionFalseOrMissing(let described): "hint: the \(name(.condition)) condition is false, or no \(described) exists"
        case .recordsLeftPointing(let model, let association, let related, let key):
            "warning: \(related) records (\(model).\(association)) are left pointing at the deleted \(model) \(key.keyText); "
                + "\(name(.cascade)) deletes them with it"
        case .decodePathNotFound(let path, let missing): decodePathMessage(path, missing, naming: name)
        case .result, .records, .appliedAfterRetry, .ownAttemptMayBeWhy, .writeMayHaveBeenApplied, .recordsEnded, .count,
            .envelope, .graphQLErrors, .requestFailed, .includedListFailed, .interrupted, .resumePoint, .syncedUntil:
            nil
        }
    }

    /// The event in the core's words (parameters and remedies by their labels), as ``message(naming:remedy:)``.
    public var message: String? { message(naming: \.label, remedy: \.label) }
}
