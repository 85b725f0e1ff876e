import Synchronization

/// Creates, updates or deletes many records, one mutation per input item, through an ``APIContext``'s one client:
/// ``BulkRunner``'s workers (each a copy of that client), its pacing, retries and read-backs; then, after a delete,
/// the check for records left pointing at the deleted ones, through the same client. An update or delete of a model with
/// conflict detection first reads every record's `_version` (``readsVersions``), in pages of keys and versions.
///
/// It reports each item's result in input order, the same refusal once (its repeats summed at the end), the pacing
/// under throttling, a broken input and the orphan check as ``BulkWriteEvent``s; the caller prints them and keeps the
/// rejects. It prints nothing and names no flag: the words of an item's refusal come from ``phrase``.
///
/// ```swift
/// let operation = try BulkWriteOperation(delete: "Comment", builder: context.builder)
/// let kind = operation.run(in: context, next: { try reader.next() }) { event in print(event); return true }
/// ```
public struct BulkWriteOperation: Sendable {
    /// What is done to each record.
    public let operation: BulkOperation
    /// The model of the records.
    public let model: String
    /// Workers (requests in flight).
    public var concurrency = Defaults.concurrency
    /// Each record's current `_version` (a model with conflict detection), sent with its update or delete; an item
    /// whose record the table lacks fails before it is sent.
    public var versions: VersionTable?
    /// Whether ``run(in:next:readRestWhenCancelled:events:)`` reads ``versions`` first, when they are not given: true
    /// for an update or delete of a model with conflict detection; false for items that carry their own `_version`
    /// (the keys a listing found).
    public var readsVersions: Bool
    /// Makes a worker's client from the context's: by default the same client with a connection of its own (a libcurl
    /// transport takes turns), or the same client over any other transport.
    public var workerClient: @Sendable (GraphQLClient) -> GraphQLClient = { client in
        guard client.transport is CurlTransport else { return client }
        var own = client
        own.transport = CurlTransport()
        return own
    }
    /// The words of an item that cannot be sent; the default says it without naming any option.
    public var phrase: @Sendable (BulkItemProblem) -> String = { $0.description }
    /// Whether a delete is followed by the check for records left pointing at the deleted ones.
    public var checksOrphans = true
    /// Builds an item's request from its JSON value.
    let build: @Sendable (JSONValue) throws(RequestBuildError) -> BulkRequest

    /// A create of each record; `assignments` (`FIELD=VALUE`) apply to every one.
    public init(create model: String, assignments: [String] = [], fields: FieldSelection = .all, builder: RequestBuilder) {
        let keyFields = builder.schema.models[model]?.primaryKey.fields ?? []
        self.init(.create, model, builder: builder) { value throws(RequestBuildError) in
            let request = try builder.create(model, values: RecordValues(assignments: assignments, input: value), fields: fields)
            return Self.bulkRequest(request, model: model, keyFields: keyFields, builder: builder)
        }
    }

    /// An update of each record, which carries its key; `assignments` apply to every one.
    public init(update model: String, assignments: [String] = [], fields: FieldSelection = .all, builder: RequestBuilder) {
        let keyFields = builder.schema.models[model]?.primaryKey.fields ?? []
        self.init(.update, model, builder: builder) { value throws(RequestBuildError) in
            let request = try builder.update(
                model, key: nil, values: RecordValues(assignments: assignments, input: value), fields: fields)
            return Self.bulkRequest(request, model: model, keyFields: keyFields, builder: builder)
        }
    }

    /// A delete of each item: a key object (`{"id":"p1"}`), a whole record, or a bare key value (`"p1"`). An object
    /// of a model with conflict detection is deleted at the `_version` it carries (as a listing of keys gives).
    public init(delete model: String, fields: FieldSelection = .all, builder: RequestBuilder) {
        let keyFields = builder.schema.models[model]?.primaryKey.fields ?? []
        let versioned = builder.schema.models[model]?.conflictDetection != nil
        self.init(.delete, model, builder: builder) { value throws(RequestBuildError) in
            let key: KeyInput
            var version: Int?
            switch value {
            case .object(let object):
                key = .values(object)
                if versioned { version = ConflictDetection.version(of: value) }
            case .string(let text): key = .id(text)
            case .number(let number): key = .id(number.text)
            default: throw .notAnObject(found: value.kindDescription)
            }
            let request = try builder.delete(model, key: key, fields: fields, version: version)
            return Self.bulkRequest(request, model: model, keyFields: keyFields, builder: builder)
        }
    }

    /// A delete of the records a listing found (``matching(_:model:in:listingClient:plansOnly:confirm:events:)``): each
    /// key carries the `_version` it was listed with, so none is read first.
    public init(deleteListed model: String, fields: FieldSelection = .all, builder: RequestBuilder) {
        self.init(delete: model, fields: fields, builder: builder)
        readsVersions = false
    }

    private init(
        _ operation: BulkOperation, _ model: String, builder: RequestBuilder,
        build: @escaping @Sendable (JSONValue) throws(RequestBuildError) -> BulkRequest
    ) {
        self.operation = operation
        self.model = model
        self.build = build
        readsVersions = operation != .create && builder.schema.models[model]?.conflictDetection != nil
    }

    private static func bulkRequest(_ request: GraphQLRequest, model: String, keyFields: [String], builder: RequestBuilder) -> BulkRequest {
        let key = request.inputKey(fields: keyFields)
        return BulkRequest(request: request, lookup: try? builder.get(model, key: .values(key)), key: key)
    }

    /// Parses an item and builds its request (with its record's version, when ``versions`` are known).
    public func prepare(_ item: BulkInputItem) -> Result<BulkRequest, BulkPrepareFailure> {
        let prepared: Result<BulkRequest, BulkPrepareFailure>
        if item.isOversized {
            prepared = .failure(BulkPrepareFailure(phrase(.oversized)))
        } else {
            do throws(JSONParseError) {
                let value = try item.parse()
                do {
                    prepared = .success(try build(value))
                } catch {
                    prepared = .failure(BulkPrepareFailure(phrase(.build(error))))
                }
            } catch {
                prepared = .failure(BulkPrepareFailure(phrase(.invalidJSON(error))))
            }
        }
        return versions?.versioned(prepared, model: model) ?? prepared
    }

    // MARK: Running

    /// Sends every item `next` reads (nil at the end) and reports each result, in input order, to `events`, never two
    /// at once; an event answered false (its record or rejected line could not be written) stops the job from
    /// starting items (those not started are reported as not sent). After an interruption the unread rest of the
    /// input is reported as not sent when `readRestWhenCancelled`. Ends with `.jobEnded`, the repeated refusals, a
    /// broken input and, after a delete that read its input to the end, the orphan check.
    ///
    /// Returns `.success` when every item was done, `.partial` when some were, `.graphQLErrors` when none was,
    /// `.invalidInput` when the input broke off, `.cancelled` when interrupted. When ``readsVersions`` and the versions
    /// cannot be read, nothing is sent: `.versionsFailed` is the only event, and the kind is the failure's.
    public func run(
        in context: APIContext, next: () throws(BulkInputError) -> BulkInputItem?, readRestWhenCancelled: Bool = true,
        events: @escaping BulkWriteEventSink
    ) -> ResultKind {
        var job = self
        if let failed = job.readVersions(in: context, events: events) { return failed }
        return job.send(in: context, next: next, readRestWhenCancelled: readRestWhenCancelled, events: events)
    }

    /// When ``readsVersions``, reads every record's version (once: ``versions`` kept), before anything is sent; when
    /// they cannot be read, reports `.versionsFailed` and returns the job's kind (nil when the job can go on).
    public mutating func readVersions(in context: APIContext, events: BulkWriteEventSink) -> ResultKind? {
        guard readsVersions && versions == nil else { return nil }
        do throws(VersionTable.Failure) {
            versions = try VersionTable.read(model: model, builder: context.builder, client: context.client)
            return nil
        } catch {
            _ = events(.versionsFailed(error))
            return error.kind
        }
    }

    private func send(
        in context: APIContext, next: () throws(BulkInputError) -> BulkInputItem?, readRestWhenCancelled: Bool,
        events: @escaping BulkWriteEventSink
    ) -> ResultKind {
        let client = context.client
        let workerClient = self.workerClient
        let halt = CancellationFlag()
        var runner = BulkRunner(
            operation: operation, concurrency: concurrency, retry: client.retry, cancellation: client.cancellation,
            makeClient: { _ in workerClient(client) },
            progress: { counts in _ = events(.progress(counts)) })
        runner.halt = halt
        runner.pacingNotice = { notice in _ = events(.pacing(notice)) }
        let deleted = operation == .delete ? DeletedKeys() : nil
        let repeated = RepeatedFailures()
        let (counts, stop) = runner.run(next: next, readRestWhenCancelled: readRestWhenCancelled, prepare: prepare) { result in
            var firstTime = true
            switch result.outcome {
            case .done: deleted?.add(result.key)
            case .failed(.invalid(let reason)): firstTime = repeated.firstTime(reason, line: result.item.line)
            default: break
            }
            if !events(.item(result, firstTime: firstTime)) { halt.cancel() }
        }
        _ = events(.jobEnded(counts, stop))
        repeated.report().forEach { _ = events(.repeatedFailure($0)) }
        if case .inputFailed(let error) = stop { _ = events(.inputFailed(error, itemsBeforeDone: true)) }
        if let deleted, checksOrphans, stop == .endOfInput { checkOrphans(deleted, in: context, events: events) }
        switch stop {
        case .endOfInput, .halted: return counts.kind
        case .cancelled: return .cancelled
        case .inputFailed: return .invalidInput
        }
    }

    /// Reads every item and reports the request each would send (`.wouldSend`), sending nothing; items that cannot be
    /// sent are reported as failed (an event answered false stops it there). Returns as ``run(in:next:readRestWhenCancelled:events:)``.
    /// When ``readsVersions``, `.versionsNotRead` comes first: the versions a run would read first are not read.
    public func dryRun(next: () throws(BulkInputError) -> BulkInputItem?, events: BulkWriteEventSink) -> ResultKind {
        if readsVersions && versions == nil { _ = events(.versionsNotRead) }
        var counts = BulkCounts()
        let repeated = RepeatedFailures()
        defer { repeated.report().forEach { _ = events(.repeatedFailure($0)) } }
        while true {
            let item: BulkInputItem
            do throws(BulkInputError) {
                guard let read = try next() else { break }
                item = read
            } catch {
                _ = events(.inputFailed(error, itemsBeforeDone: false))
                return .invalidInput
            }
            switch prepare(item) {
            case .success(let request):
                counts.done += 1
                _ = events(.wouldSend(request.request))
            case .failure(let failure):
                counts.failed += 1
                let result = BulkItemResult(item: item, outcome: .failed(.invalid(failure.message)))
                if !events(.item(result, firstTime: repeated.firstTime(failure.message, line: item.line))) { return counts.kind }
            }
        }
        return counts.kind
    }

    /// After a bulk delete: the records left pointing at the deleted ones, summed per association (one listing of at
    /// most one record per deleted record and association), or that they were not checked past
    /// ``Defaults/orphanCheckLimit`` records.
    private func checkOrphans(_ deleted: DeletedKeys, in context: APIContext, events: BulkWriteEventSink) {
        let (count, keys) = deleted.snapshot
        guard count > 0, let parent = context.schema.models[model],
            parent.relationshipFields.contains(where: { context.schema.relationship(of: $0)?.keyHolder == .relatedModel })
        else { return }
        let cascade = CascadeDelete(builder: context.builder, client: context.client)
        guard count <= DeletedKeys.limit, keys.count == count else {
            _ = events(.orphansNotChecked(deleted: count, limit: DeletedKeys.limit))
            return
        }
        var pointing: [BulkOrphans] = []
        for key in keys {
            guard let orphans = try? cascade.orphans(model: model, key: key) else { continue }
            for orphan in orphans {
                if let index = pointing.firstIndex(where: { $0.association == orphan.field }) {
                    pointing[index].records += 1
                } else {
                    pointing.append(BulkOrphans(association: orphan.field, model: orphan.model, records: 1, deleted: count))
                }
            }
        }
        pointing.forEach { _ = events(.orphansLeft($0)) }
    }
}

/// What a ``BulkWriteOperation`` reports, in order; a caller's answer of false to an item says its record or rejected
/// line could not be written, which stops the job from starting records.
public enum BulkWriteEvent: Sendable {
    /// The counts so far, before each item's result (a progress display's seam).
    case progress(BulkCounts)
    /// An item's result, in input order: done (with the record as the server returned it), failed, interrupted in
    /// flight, or not sent. `firstTime` is false for an item refused before sending with a refusal already reported:
    /// it is summed in a `.repeatedFailure` at the end.
    case item(BulkItemResult, firstTime: Bool)
    /// The shared pacing changed under throttling, and why.
    case pacing(PacingNotice)
    /// The job is over (what follows are its closing reports): the counts, and what stopped it.
    case jobEnded(BulkCounts, BulkRunner.Stop)
    /// The same refusal, reported once, was met again.
    case repeatedFailure(RepeatedFailure)
    /// The input could not be read on; `itemsBeforeDone`: the items before it were sent.
    case inputFailed(BulkInputError, itemsBeforeDone: Bool)
    /// After a delete: more records were deleted than are checked for records left pointing at them.
    case orphansNotChecked(deleted: Int, limit: Int)
    /// After a delete: records of an association still point at some of the deleted records.
    case orphansLeft(BulkOrphans)
    /// A dry run: the request an item would send.
    case wouldSend(GraphQLRequest)
    /// Before anything was sent: the `_version` of each record (a model with conflict detection) could not be read, so
    /// nothing is changed.
    case versionsFailed(VersionTable.Failure)
    /// A dry run of an update or delete of a model with conflict detection: a run would read each record's `_version`
    /// first; a dry run does not.
    case versionsNotRead
}

/// Receives a bulk write's events, from the job's threads but never two at once.
public typealias BulkWriteEventSink = @Sendable (BulkWriteEvent) -> Bool

/// Why an item cannot be sent, for ``BulkWriteOperation/phrase``.
public enum BulkItemProblem: Sendable, CustomStringConvertible {
    /// Larger than ``BulkInputItem/maximumSize``: read past, not kept.
    case oversized
    /// Not JSON.
    case invalidJSON(JSONParseError)
    /// Its request could not be built (an unknown field, a bad value).
    case build(RequestBuildError)

    /// The reason, as one line.
    public var description: String {
        switch self {
        case .oversized: "larger than \(BulkInputItem.maximumSize >> 20) MiB, the most read as one record; it was read past and not sent"
        case .invalidJSON(let error): "invalid JSON at \(error.line):\(error.column): \(error.message)"
        case .build(let error): error.description
        }
    }
}

/// Items refused before sending with one message, after the first: how many, and on which input lines.
public struct RepeatedFailure: Sendable, Equatable {
    /// The message each of them was refused with.
    public let message: String
    /// The repeats (the first, reported as it happened, is not counted).
    public let count: Int
    /// Their input lines as ranges, the first ``RepeatedFailures/shownRanges`` (none for records a listing found).
    public let lines: [ClosedRange<Int>]
    /// Whether some repeats are not in `lines`.
    public let unlisted: Bool
}

/// After a bulk delete: the records of one association that point at `records` of the `deleted` records.
public struct BulkOrphans: Sendable, Equatable {
    /// The parent's association field.
    public let association: String
    /// The model of the records left pointing.
    public let model: String
    /// How many of the deleted records they point at.
    public internal(set) var records: Int
    /// How many records the bulk delete deleted.
    public let deleted: Int
}

extension BulkItemResult {
    /// The input line as a rejects file gets it; a create's line carries the key it was sent with, so that a re-run
    /// cannot make a second record.
    public func rejectLine(_ operation: BulkOperation) -> [UInt8] {
        guard operation == .create, let key, case .object(var object)? = try? item.parse() else { return item.rejectLine }
        var added = false
        for member in key where object[member.key] == nil || object[member.key] == .null {
            object[member.key] = member.value
            added = true
        }
        guard added else { return item.rejectLine }
        return Array(JSONValue.object(object).serialized(.compact).utf8) + [UInt8(ascii: "\n")]
    }
}

extension BulkInputItem {
    /// Items made from keys (`{"id":"p1"}`), as a listing found them: they have no input line.
    public static func items(keys: [JSONObject]) -> () throws(BulkInputError) -> BulkInputItem? {
        var index = 0
        return { () throws(BulkInputError) -> BulkInputItem? in
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return BulkInputItem(index: index, line: 0, bytes: Array(JSONValue.object(keys[index]).serialized(.compact).utf8))
        }
    }
}

/// The keys a bulk delete deleted, for the orphan check after the job: kept up to ``limit``, past it only counted.
final class DeletedKeys: Sendable {
    /// Past this many deleted records the check is skipped.
    static let limit = Defaults.orphanCheckLimit
    private let state = Mutex<(count: Int, keys: [JSONObject])>((0, []))

    func add(_ key: JSONObject?) {
        state.withLock { state in
            state.count += 1
            if let key, state.keys.count < Self.limit { state.keys.append(key) }
        }
    }

    var snapshot: (count: Int, keys: [JSONObject]) { state.withLock { $0 } }
}

/// A bulk job's items refused before sending with the same message: the first is reported as it happens, the rest
/// once at the end, with their count and lines, so that one mistake made on every line is said once.
final class RepeatedFailures: Sendable {
    private struct Repeats {
        var count = 0
        var ranges: [ClosedRange<Int>] = []
        var unlisted = false
    }

    /// How many line ranges the closing report lists.
    static let shownRanges = 8
    private let state = Mutex<(order: [String], repeats: [String: Repeats])>(([], [:]))

    /// Whether `message` is reported now: true the first time; later, the item's line (0: none) is kept for ``report``.
    func firstTime(_ message: String, line: Int) -> Bool {
        state.withLock { state in
            guard var repeats = state.repeats[message] else {
                state.order.append(message)
                state.repeats[message] = Repeats()
                return true
            }
            repeats.count += 1
            if line > 0, let last = repeats.ranges.last, last.upperBound == line - 1 {
                repeats.ranges[repeats.ranges.count - 1] = last.lowerBound...line
            } else if line > 0, repeats.ranges.count < Self.shownRanges {
                repeats.ranges.append(line...line)
            } else {
                repeats.unlisted = true
            }
            state.repeats[message] = repeats
            return false
        }
    }

    /// The messages met more than once, in the order first met.
    func report() -> [RepeatedFailure] {
        state.withLock { state in
            state.order.compactMap { message in
                guard let repeats = state.repeats[message], repeats.count > 0 else { return nil }
                return RepeatedFailure(message: message, count: repeats.count, lines: repeats.ranges, unlisted: repeats.unlisted)
            }
        }
    }
}

extension BulkWriteOperation {
    /// What to do after listing the records a filter matches, for a delete of them.
    public enum Matching: Sendable {
        /// Delete the records with these keys (as a bulk job over ``BulkInputItem/items(keys:)``).
        case delete([JSONObject])
        /// Delete nothing, and end so (the reason was reported).
        case stop(ResultKind)
    }

    /// What listing the records a filter matches reports before anything is deleted.
    public enum MatchingEvent {
        /// The listing stopped before its end: nothing is deleted.
        case listingStopped(ListStop)
        /// A plan only: the keys that would be deleted.
        case wouldDelete([JSONObject])
        /// No record matches.
        case nothingMatched
    }

    /// Lists the keys of the records `requests` find (built with `.keysOnly`, as ``RequestBuilder/listPages`` does)
    /// through `listingClient` (the context's client by default), then asks `confirm` with their count. For a model
    /// with conflict detection each key carries the record's `_version`, and soft-deleted records are left out.
    public static func matching(
        _ requests: ListRequests, model: String, in context: APIContext, listingClient: GraphQLClient? = nil, plansOnly: Bool,
        confirm: (_ count: Int) -> ConfirmationAnswer, events: (MatchingEvent) -> Void
    ) -> Matching {
        let listed = context.schema.models[model]
        var keys: [JSONObject] = []
        let pager = ListPager(
            client: listingClient ?? context.client, connectionPath: [requests.rootField], pageSize: Defaults.pageSize,
            makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
        let result = pager.run { items in
            for item in items {
                guard case .object(let record) = item, let listed else { continue }
                guard listed.conflictDetection != nil else {
                    keys.append(listed.key(of: record))
                    continue
                }
                if ConflictDetection.isDeleted(item) { continue }
                var key = listed.key(of: record)
                key[ConflictDetection.versionField] = record[ConflictDetection.versionField]
                keys.append(key)
            }
        }
        switch result.stop {
        case .endOfList, .limitReached: break
        case .cancelled:
            events(.listingStopped(result.stop))
            return .stop(.cancelled)
        case .graphQLErrors, .partial, .failed, .consumerFailed:
            events(.listingStopped(result.stop))
            return .stop(result.kind)
        }
        if plansOnly {
            events(.wouldDelete(keys))
            return .stop(.success)
        }
        if keys.isEmpty {
            events(.nothingMatched)
            return .stop(.success)
        }
        if let refusal = confirm(keys.count).refusal { return .stop(refusal) }
        return .delete(keys)
    }
}

extension RepeatedFailure {
    /// `posts.ndjson: the same error on 499 more lines (2-500): MESSAGE`; for records a listing found (`inputName`
    /// empty), `the same error on 3 more records: MESSAGE`.
    public func line(inputName: String) -> String {
        let noun = inputName.isEmpty ? "record" : "line"
        var shown = lines.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
        if unlisted && !shown.isEmpty { shown.append("…") }
        let which = shown.isEmpty ? "" : " (" + shown.joined(separator: ", ") + ")"
        let place = inputName.isEmpty ? "" : "\(inputName): "
        return "\(place)the same error on \(count) more \(noun)\(count == 1 ? "" : "s")\(which): \(message)"
    }
}

extension BulkCounts {
    /// `1998 created, 2 failed in 3.21 s`, with what was in flight and not sent after an interruption.
    public func summary(_ operation: BulkOperation) -> String {
        var line = "\(done) \(operation.pastTense), \(failed) failed"
        if interrupted > 0 { line += ", \(interrupted) interrupted in flight" }
        if notSent > 0 { line += ", \(notSent) not sent" }
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return line + " in \(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
