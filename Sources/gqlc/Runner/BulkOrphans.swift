import GQLCore
import Synchronization

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

extension ModelCommandRunner {
    /// After a bulk delete: the records left pointing at the deleted ones, summed per association (one `--limit 1`
    /// listing per record and association, as a single delete makes), or that they were not checked past
    /// ``DeletedKeys/limit`` records.
    func warnBulkOrphans(_ model: String, deleted: DeletedKeys, client: GraphQLClient) {
        let (count, keys) = deleted.snapshot
        guard count > 0, let parent = schema.models[model],
            parent.relationshipFields.contains(where: { schema.relationship(of: $0)?.keyHolder == .relatedModel })
        else { return }
        guard count <= DeletedKeys.limit, keys.count == count else {
            diagnostics.error(
                "warning: records that pointed at the \(count) deleted \(model) records were not checked (more than "
                    + "\(DeletedKeys.limit): one query per record and association); "
                    + "gqlc delete \(model) \(SharedOptions.id.flagName) ID \(DeleteCommand.cascade.flagName) \(GlobalOptions.dryRunOption.flagName) shows what one record has")
            return
        }
        let cascade = CascadeDelete(builder: builder, client: client)
        var pointing: [(association: String, related: String, records: Int)] = []
        for key in keys {
            guard let orphans = try? cascade.orphans(model: model, key: key) else { continue }
            for orphan in orphans {
                if let index = pointing.firstIndex(where: { $0.association == orphan.field }) {
                    pointing[index].records += 1
                } else {
                    pointing.append((orphan.field, orphan.model, 1))
                }
            }
        }
        for entry in pointing {
            diagnostics.error(
                "warning: \(entry.related) records (\(model).\(entry.association)) are left pointing at \(entry.records) "
                    + "of the \(count) deleted \(model) records; delete \(model) \(DeleteCommand.cascade.flagName) deletes a record with them")
        }
    }
}
