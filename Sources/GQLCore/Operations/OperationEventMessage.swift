extension OperationEvent {
    /// The event in words, for the events that need no option of the caller's to say what to do: `no Post with key
    /// 'p1'`, `the server repeated a nextToken; …`. Nil for records and results, and for the events whose advice names
    /// an option or a count of the caller's (a program phrases those).
    public var message: String? {
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
        case .result, .records, .appliedAfterRetry, .ownAttemptMayBeWhy, .writeMayHaveBeenApplied, .recordsEnded, .count,
            .envelope, .graphQLErrors, .requestFailed, .deletedRecordHidden, .includedListFailed, .interrupted, .resumePoint,
            .resumePointRefused, .syncedUntil, .syncIncomplete, .versionNotReceived, .versionConflict, .conditionFalse,
            .conditionFalseOrMissing, .recordsLeftPointing, .decodePathNotFound:
            nil
        }
    }
}
