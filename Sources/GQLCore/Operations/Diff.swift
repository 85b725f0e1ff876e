/// One record that differs between the two sides.
public struct RecordDifference: Sendable, Equatable {
    /// How the record differs: only on the `to` side, only on the `from` side, or on both with other values.
    public enum Operation: String, Sendable { case added, removed, changed }

    /// How the record differs.
    public var operation: Operation
    /// The record's model.
    public var model: String
    /// The record's primary key.
    public var key: JSONObject
    /// The compared fields that differ (for `changed`).
    public var fields: [String]
    /// The record on the `from` side (nil when added).
    public var from: JSONObject?
    /// The record on the `to` side (nil when removed).
    public var to: JSONObject?

    /// `{"op": …, "model": …, "key": {…}, "fields": […], "from": {…}|null, "to": {…}|null}`.
    public var json: JSONValue {
        .object([
            "op": .string(operation.rawValue), "model": .string(model), "key": .object(key),
            "fields": .array(fields.map(JSONValue.string)), "from": from.map(JSONValue.object) ?? .null,
            "to": to.map(JSONValue.object) ?? .null,
        ])
    }
}

/// How many records of a model differ.
public struct DiffCounts: Sendable, Equatable {
    /// Records only on the `to` side.
    public var added = 0
    /// Records only on the `from` side.
    public var removed = 0
    /// Records on both sides whose compared fields differ.
    public var changed = 0
    /// Records compared on the `from` side.
    public var compared = 0

    /// No records compared yet.
    public init() {}
    /// Whether no record differs.
    public var same: Bool { added + removed + changed == 0 }
}

/// Why a model could not be compared: a side's records ended early, or could not be read.
public struct DiffFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, as one line.
    public var description: String
    /// How it failed, as `list` would exit (an HTTP, network or GraphQL failure, an interruption).
    public var kind: ResultKind
    /// The side that failed: true for `to`; nil when it is not one side's doing.
    public var toSide: Bool?

    /// A failure said by `description`, ending as `kind`, on the side `toSide` names.
    public init(_ description: String, kind: ResultKind = .graphQLErrors, toSide: Bool? = nil) {
        self.description = description
        self.kind = kind
        self.toSide = toSide
    }
}

/// Compares one model's records on two sides by primary key, in memory bounded by the number of records times two
/// 64-bit hashes (a key hash and a hash of the compared fields; about 50 bytes a record in a dictionary) plus the
/// changed records: the `from` side is read once into that index, the `to` side once against it (added records are
/// reported as they are read), and only when something was removed or changed is the `from` side read a second time
/// to report those with their values.
public struct RecordDiff: Sendable {
    /// Fields never compared: the implicit timestamps and DataStore's bookkeeping.
    public static let ignoredByDefault: Set<String> = ["__typename", "_version", "_lastChangedAt", "_deleted", "createdAt", "updatedAt"]

    /// The model whose records are compared.
    public var model: Model
    /// More fields to ignore.
    public var ignore: Set<String> = []
    /// When given, only these fields are compared.
    public var fields: [String]?

    /// A comparison of `model`'s records, leaving out `ignore` (besides the defaults), only `fields` when given.
    public init(model: Model, ignore: Set<String> = [], fields: [String]? = nil) {
        self.model = model
        self.ignore = ignore
        self.fields = fields
    }

    /// The compared members of `record`, sorted by name.
    public func compared(_ record: JSONObject) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        for member in record {
            let name = member.key
            if Self.ignoredByDefault.contains(name) || ignore.contains(name) { continue }
            if let field = model.field(named: name), field.isRelationship || field.isReadOnly { continue }
            if let fields, !fields.contains(name), !model.primaryKey.fields.contains(name) { continue }
            members.append((name, member.value))
        }
        return members.sorted { $0.0 < $1.0 }
    }

    private func hash(_ value: JSONValue) -> UInt64 {
        let digest = SHA256.hash(Array(value.serialized(.compact).utf8))
        return digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private func keyHash(_ record: JSONObject) -> UInt64 { hash(.object(model.key(of: record))) }

    private func contentHash(_ record: JSONObject) -> UInt64 {
        hash(.array(compared(record).map { .array([.string($0.0), $0.1]) }))
    }

    /// Compares the records `open(side)` streams (`false` for from, `true` for to); `emit` gets each difference.
    public func run(
        open: (_ toSide: Bool) throws(SnapshotError) -> any RecordStream, emit: (RecordDifference) -> Void
    ) throws(DiffFailure) -> DiffCounts {
        var counts = DiffCounts()
        var index: [UInt64: UInt64] = [:]
        try each(open, false) { record in
            index[keyHash(record)] = contentHash(record)
            counts.compared += 1
        }
        var changed: [UInt64: JSONObject] = [:]
        try each(open, true) { record in
            let key = keyHash(record)
            guard let content = index.removeValue(forKey: key) else {
                counts.added += 1
                emit(RecordDifference(operation: .added, model: model.name, key: model.key(of: record), fields: [], from: nil, to: record))
                return
            }
            if content != contentHash(record) { changed[key] = record }
        }
        guard !index.isEmpty || !changed.isEmpty else { return counts }
        try each(open, false) { record in
            let key = keyHash(record)
            if index[key] != nil {
                counts.removed += 1
                emit(RecordDifference(operation: .removed, model: model.name, key: model.key(of: record), fields: [], from: record, to: nil))
            } else if let other = changed.removeValue(forKey: key) {
                counts.changed += 1
                emit(RecordDifference(
                    operation: .changed, model: model.name, key: model.key(of: record), fields: differing(record, other),
                    from: record, to: other))
            }
        }
        return counts
    }

    /// The compared fields whose values differ (a field on one side only counts as null on the other).
    public func differing(_ from: JSONObject, _ to: JSONObject) -> [String] {
        let left = Dictionary(compared(from), uniquingKeysWith: { $1 })
        let right = Dictionary(compared(to), uniquingKeysWith: { $1 })
        return Set(left.keys).union(right.keys).sorted().filter { (left[$0] ?? .null) != (right[$0] ?? .null) }
    }

    private func each(
        _ open: (Bool) throws(SnapshotError) -> any RecordStream, _ side: Bool, _ body: (JSONObject) -> Void
    ) throws(DiffFailure) {
        var stream: any RecordStream
        do {
            stream = try open(side)
        } catch {
            throw DiffFailure(error.description, toSide: side)
        }
        defer { stream.close() }
        do {
            while let next = try stream.nextValue() {
                guard case .object(let record)? = next.value else {
                    throw DiffFailure("a record of \(model.name) is not a JSON object (line \(next.line))", toSide: side)
                }
                body(record)
            }
        } catch let error as DiffFailure {
            throw error
        } catch {
            throw DiffFailure("\(error)", toSide: side)
        }
        if let failure = stream.failure {
            throw DiffFailure("listing \(model.name) failed: \(failure)", kind: stream.failureKind, toSide: side)
        }
    }
}
