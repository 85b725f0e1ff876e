/// A write refused by AppSync's conflict handler (`ConflictUnhandled`): the server's record, its version, and
/// which of the values sent differ from it.
public struct VersionConflict: Sendable, Equatable {
    /// The `errorType` AppSync gives.
    public static let errorType = "ConflictUnhandled"

    /// The record as the server holds it (the error's `data`), when it sent one.
    public var serverRecord: JSONValue?
    /// The `_version` the write sent, if any.
    public var sentVersion: Int?
    /// Fields the write set to values other than the server's, with both values, in input order.
    public var differences: [(field: String, server: JSONValue, sent: JSONValue)]

    public static func == (lhs: VersionConflict, rhs: VersionConflict) -> Bool {
        lhs.serverRecord == rhs.serverRecord && lhs.sentVersion == rhs.sentVersion
            && lhs.differences.map(\.field) == rhs.differences.map(\.field)
    }

    /// The conflict among `errors`, compared with the mutation's `input`; nil when none is a conflict.
    public static func find(in errors: [GraphQLError], input: JSONObject, keyFields: [String]) -> VersionConflict? {
        guard let error = errors.first(where: { $0.errorType == errorType }) else { return nil }
        var sentVersion: Int?
        if case .number(let number)? = input[ConflictDetection.versionField] { sentVersion = number.intValue }
        var differences: [(field: String, server: JSONValue, sent: JSONValue)] = []
        if case .object(let server)? = error.data {
            for member in input where !keyFields.contains(member.key) && member.key != ConflictDetection.versionField {
                let held = server[member.key] ?? .null
                if held != member.value { differences.append((member.key, held, member.value)) }
            }
        }
        return VersionConflict(serverRecord: error.data, sentVersion: sentVersion, differences: differences)
    }

    /// The server's `_version`, when its record came with the error.
    public var serverVersion: Int? { serverRecord.flatMap(ConflictDetection.version(of:)) }

    /// One line: `the server has _version 3 (2 was sent); it differs in quantity (server 6, sent 9)`.
    public var summary: String {
        var line = serverVersion.map { "the server has \(ConflictDetection.versionField) \($0)" } ?? "the server's version is not known"
        line += sentVersion.map { " (\($0) was sent)" } ?? " (none was sent)"
        if let note = serverRecord.flatMap(ConflictDetection.deletedNote) { line += "; the record was \(note)" }
        if !differences.isEmpty {
            line += "; it differs in " + differences.map { difference in
                "\(difference.field) (server \(difference.server.serialized()), sent \(difference.sent.serialized()))"
            }.joined(separator: ", ")
        }
        return line
    }
}
