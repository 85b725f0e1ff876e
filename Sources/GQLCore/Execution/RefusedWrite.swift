/// A write that the transformer's condition refused: "the key is new" for a create, "the record exists" (and any
/// `--if` condition) for an update or delete. When gqlc itself retried the write, its first attempt may have been
/// applied with its answer lost, and the refusal is that attempt's doing; one read of the record tells.
///
/// The same rule serves a bulk job's items and a single record's command:
///
/// ```swift
/// let refused = RefusedWrite(operation: .create, sent: request.variables["input"], key: key, lookup: get)
/// switch refused.check(client: client) {
/// case .applied(let record): …          // done: print the record as read back
/// case .differs: …                      // a record with the key holds other values
/// case .missing, .unknown: …
/// }
/// ```
public struct RefusedWrite: Sendable {
    /// What the write was.
    public var operation: BulkOperation
    /// The mutation's `input` as sent: the values a create or update wrote.
    public var sent: JSONValue?
    /// The record's key as sent (what a delete that was applied leaves behind, as its result).
    public var key: JSONObject
    /// A `get` of the same key; nil when the model has none (then nothing can be told).
    public var lookup: GraphQLRequest?

    public init(operation: BulkOperation, sent: JSONValue?, key: JSONObject, lookup: GraphQLRequest?) {
        self.operation = operation
        self.sent = sent
        self.key = key
        self.lookup = lookup
    }

    /// What the record looks like now.
    public enum Finding: Sendable, Equatable {
        /// The write has taken effect: a create's or update's record holds every value sent (the record as read
        /// back), or a delete's record is gone (its key).
        case applied(JSONValue)
        /// The record exists with other values than those sent (a delete: it still exists).
        case differs
        /// No record has the key (a create or update).
        case missing
        /// The record could not be read (no get, or the get failed).
        case unknown
    }

    /// Reads the record once (the read itself is retried as any query is) and compares it with what was sent.
    public func check(client: GraphQLClient) -> Finding {
        guard let lookup, let response = try? client.execute(lookup),
            let outcome = try? response.outcome(decodePath: lookup.decodePath, nullIsNotFound: true)
        else { return .unknown }
        switch outcome {
        case .success(let record):
            if operation == .delete { return .differs }
            return Self.holds(record, sent) ? .applied(record) : .differs
        case .notFound:
            return operation == .delete ? .applied(.object(key)) : .missing
        case .partial, .failed, .pathNotFound:
            return .unknown
        }
    }

    /// Whether `record` has every value of `input`. Objects match member by member (the stored side may have more,
    /// such as `__typename`; a member it lacks was not selected, so it cannot tell against); lists element by
    /// element; numbers by value (`4.50` is `4.5`); strings that are both JSON containers (AWSJSON) by their JSON.
    public static func holds(_ record: JSONValue, _ input: JSONValue?) -> Bool {
        guard let input else { return false }
        return matches(record, input, selected: false)
    }

    /// `selected`: every member of the stored side is there (inside an AWSJSON value), so a missing one differs.
    private static func matches(_ record: JSONValue, _ input: JSONValue, selected: Bool) -> Bool {
        switch (record, input) {
        case (.object(let stored), .object(let sent)):
            if selected && stored.count != sent.count { return false }
            return sent.allSatisfy { member in
                stored[member.key].map { matches($0, member.value, selected: selected) } ?? !selected
            }
        case (.array(let stored), .array(let sent)):
            return stored.count == sent.count && zip(stored, sent).allSatisfy { matches($0, $1, selected: selected) }
        case (.number(let stored), .number(let sent)):
            return stored == sent || (stored.doubleValue != nil && stored.doubleValue == sent.doubleValue)
        case (.string(let stored), .string(let sent)) where stored != sent:
            guard let storedJSON = try? JSONValue.parse(stored), let sentJSON = try? JSONValue.parse(sent),
                storedJSON.isContainer, sentJSON.isContainer
            else { return false }
            return matches(storedJSON, sentJSON, selected: true)
        default:
            return record == input
        }
    }
}
