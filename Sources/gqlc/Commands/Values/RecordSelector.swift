/// How `get`, `update` and `delete` pick one record: `--id VALUE` or one `--key FIELD=VALUE` per key field.
///
/// Values stay text here; they are coerced by the key fields' types once the schema is loaded.
enum RecordSelector: Equatable, Sendable {
    /// The value of a single-field primary key (usually `id`).
    case id(String)
    /// Named key fields, in the order given, e.g. `sku=A1`, `warehouseId=W1`, `bin=3`.
    case key([KeyField])
}

/// One `--key FIELD=VALUE`.
struct KeyField: Equatable, Sendable {
    let field: String
    let value: String

    /// Parses `FIELD=VALUE` (the value may be empty or contain `=`).
    static func parse(_ text: String) throws(UsageError) -> KeyField {
        let (field, rest) = GraphQLName.split(text)
        guard !field.isEmpty, rest.first == "=" else {
            throw UsageError("invalid value '\(text)' for '--key': expected FIELD=VALUE, e.g. --key sku=A1")
        }
        return KeyField(field: field, value: String(rest.dropFirst()))
    }
}
