/// A change to a watched listing, as a subscription or a poll reports it.
public enum ChangeKind: String, Sendable, Equatable, CaseIterable {
    case create, update, delete

    /// The change a model subscription reports (`onCreate` → `create`).
    public init(_ event: SubscriptionEvent) {
        switch event {
        case .onCreate: self = .create
        case .onUpdate: self = .update
        case .onDelete: self = .delete
        }
    }
}

/// What a watched listing reports, in order: the records of the first listing, `synced` once it reached its end,
/// then one change at a time.
public enum WatchEvent: Sendable, Equatable {
    case item(JSONValue)
    case synced(count: Int)
    case change(ChangeKind, JSONValue)

    /// The line printed for the event: `{"event": "item", "item": {…}}`, `{"event": "synced", "count": N}`,
    /// `{"event": "create", "item": {…}}`.
    public var envelope: JSONValue {
        switch self {
        case .item(let record): return .object(["event": .string("item"), "item": record])
        case .synced(let count): return .object(["event": .string("synced"), "count": .number(JSONNumber(count))])
        case .change(let kind, let record): return .object(["event": .string(kind.rawValue), "item": record])
        }
    }
}

/// The records of one listing kept up to date by change events, as Amplify's `observeQuery` keeps them.
///
/// Subscriptions are opened before the listing starts; what they deliver while it pages is queued, then replayed
/// once it reached its end (insert if absent, replace, remove, matched by primary key). A change that leaves the
/// records as they are (a create or update the listing already showed, a delete of a record it never held) is
/// dropped, so nothing is reported twice and nothing made while the listing paged is lost.
public struct ObservedList: Sendable {
    /// The primary-key fields that identify a record.
    public let keyFields: [String]
    /// The records by key, and their keys in the order they came.
    private var byKey: [String: JSONValue] = [:]
    private var order: [String] = []
    /// Changes received before the listing ended, in the order they came.
    private var queued: [(ChangeKind, JSONValue)] = []
    /// True once the first listing reached its end.
    public private(set) var isSynced = false

    public init(keyFields: [String]) {
        self.keyFields = keyFields
    }

    /// The records now, in the order they were first listed or created.
    public var records: [JSONValue] { order.compactMap { byKey[$0] } }

    /// How many records the listing holds now.
    public var count: Int { order.count }

    /// A page of the first listing: its records, to report as items.
    public mutating func listed(_ items: [JSONValue]) -> [WatchEvent] {
        items.map { record in
            insertOrReplace(record)
            return .item(record)
        }
    }

    /// The first listing reached its end: `synced`, then the queued changes that still change something.
    public mutating func finishListing() -> [WatchEvent] {
        isSynced = true
        var events: [WatchEvent] = [.synced(count: count)]
        let replay = queued
        queued = []
        for (kind, record) in replay {
            if let event = apply(kind, record) { events.append(event) }
        }
        return events
    }

    /// A change from a subscription: queued (nil) until the listing has ended; afterwards the change it makes,
    /// or nil when it leaves the records as they are.
    public mutating func receive(_ kind: ChangeKind, _ record: JSONValue) -> WatchEvent? {
        guard isSynced else {
            queued.append((kind, record))
            return nil
        }
        return apply(kind, record)
    }

    /// A fresh listing (after a lost connection, or a poll): the changes that turn the records into `items`.
    public mutating func relisted(_ items: [JSONValue]) -> [WatchEvent] {
        var fresh: [String: JSONValue] = [:]
        var freshOrder: [String] = []
        var events: [WatchEvent] = []
        for record in items {
            let key = key(of: record)
            if fresh[key] == nil { freshOrder.append(key) }
            fresh[key] = record
            if let old = byKey[key] {
                if old != record { events.append(.change(.update, record)) }
            } else {
                events.append(.change(.create, record))
            }
        }
        for key in order where fresh[key] == nil {
            if let old = byKey[key] { events.append(.change(.delete, old)) }
        }
        byKey = fresh
        order = freshOrder
        return events
    }

    // MARK: -

    private mutating func apply(_ kind: ChangeKind, _ record: JSONValue) -> WatchEvent? {
        let key = key(of: record)
        switch kind {
        case .create, .update:
            if let old = byKey[key], Self.holds(old, record) { return nil }
            insertOrReplace(record)
        case .delete:
            guard byKey.removeValue(forKey: key) != nil else { return nil }
            order.removeAll { $0 == key }
        }
        return .change(kind, record)
    }

    private mutating func insertOrReplace(_ record: JSONValue) {
        let key = key(of: record)
        if byKey.updateValue(record, forKey: key) == nil { order.append(key) }
    }

    /// The key as text: the key fields' values in key order.
    private func key(of record: JSONValue) -> String {
        var writer = JSONWriter(style: .compact)
        writer.write(.array(keyFields.map { record[$0] ?? .null }))
        return writer.text
    }

    /// Whether `old` already shows every value `new` carries (a subscription sends the fields its mutation selected).
    static func holds(_ old: JSONValue, _ new: JSONValue) -> Bool {
        guard case .object(let fields) = new else { return old == new }
        return fields.allSatisfy { member in old[member.key] == member.value }
    }
}
