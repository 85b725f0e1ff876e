import GQLCore

/// How a write whose answer was lost (a timeout, a dropped connection) is phrased: it may still have been applied,
/// with the key it was sent with and the command that checks; after gqlc's own retry, the core read it back.
enum UncertainWrites {
    /// The note before a record gqlc read back after its retry was refused: the first attempt had been applied.
    static func appliedNote(_ operation: BulkOperation) -> String {
        let shown = operation == .delete ? "the record is gone, so its key is printed" : "the record is printed as read back"
        return "note: gqlc retried this \(operation.rawValue) and its first attempt had been applied (that answer was lost); \(shown)"
    }

    /// `gqlc retried this update, and its own earlier attempt may have been applied (check with: gqlc get …)`.
    static func ownAttemptMayBeWhy(_ operation: BulkOperation, model: String, key: JSONObject) -> String {
        let pairs = key.members.map { KeyValueText(field: $0.key, value: $0.value.stringValue ?? $0.value.serialized(.compact)) }
        let check = pairs.isEmpty ? "" : " (check with: gqlc get \(model) \(selector(pairs)))"
        let effect = operation == .create ? "may have made it" : "may have been applied"
        return "gqlc retried this \(operation.rawValue) after an attempt without an answer, and its own earlier attempt "
            + effect + check
    }

    /// The lines after a create's answer was lost: the key it was sent with and how to check.
    static func lines(_ write: UncertainWrite) -> [String] {
        let when = write.cause == .timeout ? "before it timed out" : "before the connection failed"
        let key = write.key
        guard !key.isEmpty else { return ["the create may have been applied \(when)"] }
        let byID = key.count == 1 && key[0].field == "id"
        let sent = byID ? "id '\(key[0].value)'" : "key " + key.map { "\($0.field)=\($0.value)" }.joined(separator: ", ")
        var lines = [
            "the create may have been applied \(when): it was sent with \(sent)",
            "check with: gqlc get \(write.model) \(selector(key))",
        ]
        if !write.retried {
            lines.append(
                "hint: \(GlobalOptions.retryMutationsOption.flagName) retries a create safely: the \(byID ? "id" : "key") it was sent with "
                    + "cannot be created twice")
        }
        return lines
    }

    /// `--id p1`, or `--key sku=A-1 --key warehouseId=w1`, each value quoted for the shell where needed.
    static func selector(_ key: [KeyValueText]) -> String {
        if key.count == 1 && key[0].field == "id" { return "\(SharedOptions.id.flagName) \(shellWord(key[0].value))" }
        return key.map { "\(SharedOptions.key.flagName) " + shellWord("\($0.field)=\($0.value)") }.joined(separator: " ")
    }

    /// `value` as one shell word: as it is when it is plainly safe, else in single quotes.
    static func shellWord(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9": return true
            default: return "-_.=:/@+,%".unicodeScalars.contains(scalar)
            }
        }
        guard !plain else { return value }
        var quoted = "'"
        for character in value { quoted += character == "'" ? "'\\''" : String(character) }
        return quoted + "'"
    }
}
