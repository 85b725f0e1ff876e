import GQLCore

/// How a write whose answer was lost (a timeout, a dropped connection) is checked on the command line: the `gqlc get`
/// of the key it was sent with, and the option that retries a create safely. The core says the rest.
enum UncertainWrites {
    /// `gqlc get Post --id p1`, the command that reads the record of `key`; nil for an empty key.
    static func check(model: String, key: JSONObject) -> String? {
        let pairs = key.members.map { KeyValueText(field: $0.key, value: $0.value.stringValue ?? $0.value.serialized(.compact)) }
        return pairs.isEmpty ? nil : "gqlc get \(model) \(selector(pairs))"
    }

    /// The lines after a create's answer was lost: the key it was sent with and how to check.
    static func lines(_ write: UncertainWrite) -> [String] {
        guard !write.key.isEmpty else { return [write.description] }
        var lines = [write.description, "check with: gqlc get \(write.model) \(selector(write.key))"]
        if !write.retried {
            lines.append(
                "hint: \(GlobalOptions.retryMutationsOption.flagName) retries a create safely: the \(write.isByID ? "id" : "key") "
                    + "it was sent with cannot be created twice")
        }
        return lines
    }

    /// `--id p1`, or `--key sku=A-1 --key warehouseId=w1`, each value quoted for the shell where needed.
    static func selector(_ key: [KeyValueText]) -> String {
        if key.isIDAlone { return "\(SharedOptions.id.flagName) \(ShellWord.quoted(key[0].value))" }
        return key.map { "\(SharedOptions.key.flagName) " + ShellWord.quoted("\($0.field)=\($0.value)") }.joined(separator: " ")
    }
}
