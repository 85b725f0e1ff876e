/// The words of writes whose outcome gqlc cannot confirm from their answer; the command that reads the record back
/// is the front end's.
extension UncertainWrite: CustomStringConvertible {
    /// `the create may have been applied before it timed out: it was sent with id 'p1'` (without the key when some
    /// key field was not sent as text or a number).
    public var description: String {
        let when = cause == .timeout ? "before it timed out" : "before the connection failed"
        guard !key.isEmpty else { return "the create may have been applied \(when)" }
        let sent = isByID ? "id '\(key[0].value)'" : "key " + key.map { "\($0.field)=\($0.value)" }.joined(separator: ", ")
        return "the create may have been applied \(when): it was sent with \(sent)"
    }

    /// Whether the key sent is the `id` alone.
    public var isByID: Bool { key.isIDAlone }
}

extension [KeyValueText] {
    /// Whether this key is the `id` field alone.
    public var isIDAlone: Bool { count == 1 && self[0].field == "id" }
}

extension BulkOperation {
    /// The note before a record gqlc read back after its retry was refused: the first attempt had been applied.
    public var appliedAfterRetryNote: String {
        let shown = self == .delete ? "the record is gone, so its key is printed" : "the record is printed as read back"
        return "note: gqlc retried this \(rawValue) and its first attempt had been applied (that answer was lost); \(shown)"
    }
}
