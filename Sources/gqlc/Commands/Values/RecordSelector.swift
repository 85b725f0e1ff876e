import GQLCore

/// How `get`, `update` and `delete` pick one record: `--id VALUE` or one `--key FIELD=VALUE` per key field.
///
/// Values stay text here; they are coerced by the key fields' types once the schema is loaded.
enum RecordSelector: Equatable, Sendable {
    /// The value of a single-field primary key (usually `id`).
    case id(String)
    /// Named key fields, in the order given, e.g. `sku=A1`, `warehouseId=W1`, `bin=3`.
    case key([String])
}

extension RecordSelector {
    /// The key as the core takes it.
    var keyInput: KeyInput {
        switch self {
        case .id(let value): .id(value)
        case .key(let pairs): .fields(pairs)
        }
    }
}
