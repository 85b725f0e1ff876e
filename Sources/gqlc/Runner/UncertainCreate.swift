import GQLCore

/// A create whose answer was lost (a timeout, a dropped connection) may still have been applied: say so,
/// with the key it was sent with and the command that checks.
extension ModelCommandRunner {
    /// The key fields and values of the record a create sends (its generated id included), in key order;
    /// empty when any is missing.
    static func sentKey(_ request: GraphQLRequest, keyFields: [String]) -> [(field: String, value: String)] {
        guard case .object(let input)? = request.variables["input"] else { return [] }
        var key: [(field: String, value: String)] = []
        for field in keyFields {
            switch input[field] {
            case .string(let text)?: key.append((field, text))
            case .number(let number)?: key.append((field, number.text))
            default: return []
            }
        }
        return key
    }

    /// The lines after a create's transport failure, or nil when the create cannot have reached the server.
    static func mayHaveBeenApplied(
        _ error: ExecutionError, model: String, key: [(field: String, value: String)], retried: Bool
    ) -> FailureExplanation? {
        let when: String
        switch error {
        case .transport(.timeout, _): when = "before it timed out"
        case .transport(.network, _): when = "before the connection failed"
        default: return nil
        }
        guard !key.isEmpty else { return .notes(["the create may have been applied \(when)"]) }
        let byID = key.count == 1 && key[0].field == "id"
        let sent = byID ? "id '\(key[0].value)'" : "key " + key.map { "\($0.field)=\($0.value)" }.joined(separator: ", ")
        let selector = byID
            ? "--id \(shellWord(key[0].value))" : key.map { "--key " + shellWord("\($0.field)=\($0.value)") }.joined(separator: " ")
        var lines = [
            "the create may have been applied \(when): it was sent with \(sent)",
            "check with: gqlc get \(model) \(selector)",
        ]
        if !retried {
            lines.append(
                "hint: --retry-mutations retries a create safely: the \(byID ? "id" : "key") it was sent with "
                    + "cannot be created twice")
        }
        return .notes(lines)
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
