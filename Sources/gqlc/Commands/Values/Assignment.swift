import GQLCore

/// A `NAME=VALUE` or `NAME:=JSON` argument: a field value for `create`/`update`, or a variable for `raw`.
struct Assignment: Equatable, Sendable {
    /// The field or variable name.
    let name: String
    let value: AssignedValue

    /// What is being assigned, for error messages: `field` or `variable`.
    enum Target: String, Sendable {
        case field = "FIELD"
        case variable = "NAME"
    }

    /// Parses `name=text` (text, coerced later by the field's type) or `name:=json` (checked to be JSON now).
    static func parse(_ text: String, target: Target) throws(UsageError) -> Assignment {
        let (name, rest) = GraphQLName.split(text)
        let shape = "\(target.rawValue)=VALUE or \(target.rawValue):=JSON"
        guard !name.isEmpty else {
            throw UsageError("invalid argument '\(text)': expected \(shape)")
        }
        if rest.hasPrefix(":=") {
            let json = String(rest.dropFirst(2))
            do {
                return Assignment(name: name, value: .json(try JSONValue.parse(json)))
            } catch {
                throw UsageError("invalid JSON for '\(name)' in '\(text)': \(error.message) at column \(error.column)")
            }
        }
        guard rest.first == "=" else {
            throw UsageError("invalid argument '\(text)': expected \(shape)")
        }
        return Assignment(name: name, value: .text(String(rest.dropFirst())))
    }

    /// Parses every argument and rejects a name given twice.
    static func parseAll(_ texts: [String], target: Target) throws(UsageError) -> [Assignment] {
        var seen: Set<String> = []
        var assignments: [Assignment] = []
        for text in texts {
            let assignment = try parse(text, target: target)
            guard seen.insert(assignment.name).inserted else {
                let noun = target == .field ? "field" : "variable"
                throw UsageError("\(noun) '\(assignment.name)' is assigned more than once")
            }
            assignments.append(assignment)
        }
        return assignments
    }
}

/// The right-hand side of an assignment.
enum AssignedValue: Equatable, Sendable {
    /// `name=text`: text that is coerced by the target's type (`3` for an Int, `true` for a Boolean, `null`).
    case text(String)
    /// `name:=json`: a JSON value used as it is.
    case json(JSONValue)
}
