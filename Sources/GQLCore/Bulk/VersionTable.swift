/// The current `_version` of every record of a model with conflict detection, read in pages of the key fields and
/// version (a listing), so that a bulk update or delete sends each record's version without one get per record.
public struct VersionTable: Sendable {
    /// What the listing said of one record.
    public struct Entry: Sendable, Equatable {
        public var version: Int
        public var deleted: Bool
    }

    private var entries: [String: Entry] = [:]
    private let keyFields: [String]
    /// How many list requests reading it took.
    public private(set) var pages = 0

    /// The number of records read.
    public var count: Int { entries.count }

    /// Why the table could not be read.
    public enum Failure: Error, Sendable, Equatable {
        case request(RequestBuildError)
        case execution(ExecutionError)
        case errors([GraphQLError])
        case cancelled
    }

    /// Reads the versions of every record of `model`, `pageSize` per request.
    public static func read(
        model: String, builder: RequestBuilder, client: GraphQLClient, pageSize: Int = Defaults.pageSize
    ) throws(Failure) -> VersionTable {
        let listed: Model
        let requests: ListRequests
        do {
            listed = try builder.model(named: model)
            requests = try builder.listPages(model, fields: .keysOnly)
        } catch {
            throw .request(error)
        }
        var table = VersionTable(keyFields: listed.primaryKey.fields)
        let pager = ListPager(
            client: client, connectionPath: [requests.rootField], pageSize: pageSize,
            makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
        let result = pager.run { items in
            for item in items {
                guard case .object(let record) = item, let version = ConflictDetection.version(of: item) else { continue }
                table.entries[table.identity(record)] = Entry(version: version, deleted: ConflictDetection.isDeleted(item))
            }
        }
        table.pages = result.pages
        switch result.stop {
        case .endOfList, .limitReached, .consumerFailed: return table
        case .cancelled: throw .cancelled
        case .failed(let error): throw .execution(error)
        case .graphQLErrors(let errors), .partial(let errors): throw .errors(errors)
        }
    }

    private init(keyFields: [String]) { self.keyFields = keyFields }

    /// The entry of the record with this key (extra members are ignored); nil when the listing did not have it.
    public func entry(forKey key: JSONObject) -> Entry? { entries[identity(key)] }

    private func identity(_ record: JSONObject) -> String {
        JSONValue.array(keyFields.map { record[$0] ?? .null }).serialized(.compact)
    }
}

extension VersionTable {
    /// A bulk job's prepared mutation with the record's current `_version` in its input; a record the listing did
    /// not find, or found soft-deleted, fails here (its line goes to the rejects) instead of being sent.
    public func versioned(_ prepared: Result<BulkRequest, BulkPrepareFailure>, model: String) -> Result<BulkRequest, BulkPrepareFailure> {
        guard case .success(var bulk) = prepared else { return prepared }
        guard let entry = entry(forKey: bulk.key) else {
            return .failure(BulkPrepareFailure("no \(model) record has this key (none was listed with its _version)"))
        }
        guard !entry.deleted else {
            return .failure(BulkPrepareFailure("the \(model) record is soft-deleted (_deleted: true, _version \(entry.version))"))
        }
        if case .object(var input)? = bulk.request.variables["input"] {
            input[ConflictDetection.versionField] = .number(JSONNumber(entry.version))
            bulk.request.variables["input"] = .object(input)
        }
        return .success(bulk)
    }
}

extension VersionTable {
    /// A dry run's note for `model`, whose versions it does not read.
    public static func dryRunNote(model: String) -> String {
        "note: \(model) has conflict detection: each record is sent with its _version, read in pages of keys and versions first"
    }
}

extension VersionTable.Failure {
    /// The line that ends the report of the failure (after the failure's own lines): nothing was changed.
    public func ending(model: String) -> String {
        self == .cancelled
            ? "interrupted while reading the versions; nothing was changed"
            : "reading the _version of each \(model) record failed; nothing was changed"
    }
}

extension VersionTable.Failure {
    /// The kind of result the failure ends a bulk job with: a request that could not be built is invalid input, the
    /// rest as the listing's own failure.
    public var kind: ResultKind {
        switch self {
        case .request: .invalidInput
        case .execution(let error): error.kind
        case .errors: .graphQLErrors
        case .cancelled: .cancelled
        }
    }
}
