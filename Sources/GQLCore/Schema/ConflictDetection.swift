/// AppSync conflict detection on a model's table, as a Gen 1 DataStore app has it: every record carries
/// `_version`, `_deleted` and `_lastChangedAt`; an update or delete must send the current `_version`; deletes
/// are soft; `sync<Plural>` queries return the changes since a time.
public struct ConflictDetection: Sendable, Equatable {
    /// What the server does when a write's `_version` is not the current one; nil when gqlc cannot know
    /// (introspection does not show it).
    public var handler: ConflictHandler?
    /// Where gqlc learned it, for `models` and `--verbose`: `transform.conf.json (project)`, ….
    public var source: String

    public init(handler: ConflictHandler?, source: String) {
        self.handler = handler
        self.source = source
    }

    /// The version field names.
    public static let versionField = "_version"
    public static let deletedField = "_deleted"
    public static let lastChangedField = "_lastChangedAt"

    /// The three fields the transformer adds to every type, read-only (the server sets them).
    public static let metadataFields: [ModelField] = [
        ModelField(name: versionField, type: .scalar("Int"), isRequired: true, isReadOnly: true),
        ModelField(name: deletedField, type: .scalar("Boolean"), isReadOnly: true),
        ModelField(name: lastChangedField, type: .scalar("AWSTimestamp"), isRequired: true, isReadOnly: true),
    ]

    /// The model's sync query: `sync` + its plural, as `list` (`syncStockItems`).
    public static func syncQuery(of model: Model) -> String { "sync" + model.pluralName.uppercasedFirst }

    /// Marks `model` as having conflict detection and gives it the three fields (read-only, after its own).
    public static func enable(_ detection: ConflictDetection?, on model: inout Model) {
        model.conflictDetection = detection
        model.fields.removeAll { field in metadataFields.contains { $0.name == field.name } }
        if detection != nil { model.fields += metadataFields }
    }

    /// Models whose type carries `_version` (a schema pulled by introspection) have conflict detection.
    static func detectFromFields(in schema: inout ModelSchema, source: String) {
        for (name, var model) in schema.models where model.field(named: versionField) != nil {
            enable(model.conflictDetection ?? ConflictDetection(handler: nil, source: source), on: &model)
            schema.models[name] = model
        }
    }
}

/// AppSync's conflict handlers (`SyncConfig.conflictHandler`, transform.conf.json's `ConflictHandler`).
public enum ConflictHandler: String, Sendable, Equatable, CaseIterable {
    /// A write with an old version is rejected (`ConflictUnhandled`, with the server's record).
    case optimisticConcurrency = "OPTIMISTIC_CONCURRENCY"
    /// A write with an old version is merged into the server's record.
    case automerge = "AUTOMERGE"
    /// A Lambda function decides.
    case lambda = "LAMBDA"

    /// How `models` names it.
    public var label: String {
        switch self {
        case .optimisticConcurrency: return "optimistic concurrency"
        case .automerge: return "auto-merge"
        case .lambda: return "Lambda"
        }
    }
}

/// What a setting says outright about conflict detection, over what the schema shows.
public enum ConflictDetectionSetting: String, Sendable, Equatable, CaseIterable {
    /// As the schema shows (transform.conf.json, `_version` on a pulled type).
    case auto
    /// No model has it.
    case off
    /// Every model has it; the handler is not known.
    case on
    case optimistic
    case automerge
    case lambda

    /// The schema with the setting applied to every model (`auto` leaves it as it is).
    public func apply(to schema: ModelSchema, source: String) -> ModelSchema {
        var schema = schema
        let detection: ConflictDetection?
        switch self {
        case .auto: return schema
        case .off: detection = nil
        case .on: detection = ConflictDetection(handler: nil, source: source)
        case .optimistic: detection = ConflictDetection(handler: .optimisticConcurrency, source: source)
        case .automerge: detection = ConflictDetection(handler: .automerge, source: source)
        case .lambda: detection = ConflictDetection(handler: .lambda, source: source)
        }
        for (name, var model) in schema.models {
            ConflictDetection.enable(detection, on: &model)
            schema.models[name] = model
        }
        return schema
    }
}

extension Model {
    /// A conflict-detection field (`_version`, `_deleted`, `_lastChangedAt`) of a model that has them: selected
    /// whatever `--fields` asks, as the key is, since writes need the version and reads the deleted mark.
    public func isVersionField(_ name: String) -> Bool {
        conflictDetection != nil && ConflictDetection.metadataFields.contains { $0.name == name }
    }
}

extension ConflictDetection {
    /// Whether a record is soft-deleted (`_deleted: true`).
    public static func isDeleted(_ record: JSONValue) -> Bool {
        if case .object(let object) = record, object[deletedField] == .bool(true) { return true }
        return false
    }

    /// A record's `_version`, when it has one.
    public static func version(of record: JSONValue) -> Int? {
        guard case .object(let object) = record, case .number(let number)? = object[versionField] else { return nil }
        return number.intValue
    }
}

extension ConflictDetection {
    /// `deleted at 2026-11-26T21:55:00.123Z (_version 3)` for a soft-deleted record; nil for any other.
    public static func deletedNote(_ record: JSONValue) -> String? {
        guard isDeleted(record) else { return nil }
        var note = "deleted"
        if case .object(let object) = record, case .number(let number)? = object[lastChangedField], let millis = number.intValue {
            note += " at " + Timestamp(secondsSince1970: Double(millis) / 1000).isoUTC
        }
        if let version = version(of: record) { note += " (\(versionField) \(version))" }
        return note
    }
}

extension ConflictDetection {
    /// A sync query's `--since`: milliseconds since 1970 (`AWSTimestamp`, as `startedAt` is printed), or a UTC
    /// date `YYYY-MM-DD` or date-time `YYYY-MM-DDThh:mm[:ss[.sss]]Z`; nil for anything else.
    public static func syncTime(_ text: String) -> Int? {
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) { return Int(text) }
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            let slice = bytes[range]
            guard slice.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(decoding: slice, as: UTF8.self))
        }
        func isByte(_ index: Int, _ character: Character) -> Bool { index < bytes.count && bytes[index] == character.asciiValue }
        guard let year = number(0..<4), isByte(4, "-"), let month = number(5..<7), isByte(7, "-"), let day = number(8..<10)
        else { return nil }
        var (hour, minute, second, millis, end) = (0, 0, 0, 0, 10)
        if bytes.count > 10 {
            guard isByte(10, "T"), let h = number(11..<13), isByte(13, ":"), let m = number(14..<16) else { return nil }
            (hour, minute, end) = (h, m, 16)
            if isByte(16, ":") {
                guard let s = number(17..<19) else { return nil }
                (second, end) = (s, 19)
                if isByte(19, ".") {
                    var digits = 20
                    while digits < bytes.count, bytes[digits] >= 48, bytes[digits] <= 57 { digits += 1 }
                    guard digits > 20, let fraction = number(20..<min(digits, 23)) else { return nil }
                    millis = fraction * [100, 10, 1][min(digits, 23) - 21]
                    end = digits
                }
            }
            guard isByte(end, "Z"), end + 1 == bytes.count else { return nil }
        }
        guard let moment = Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            return nil
        }
        return Int(moment.secondsSince1970) * 1000 + millis
    }
}
