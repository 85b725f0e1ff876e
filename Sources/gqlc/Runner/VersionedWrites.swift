import GQLCore

extension ModelCommandRunner {
    /// For a bulk update or delete of a model with conflict detection, every record's version, read in pages of
    /// keys and versions (nil for other models, and under `--dry-run`, which sends nothing).
    mutating func bulkVersions(_ model: String) -> Result<VersionTable?, BulkStop> {
        guard schema.models[model]?.conflictDetection != nil else { return .success(nil) }
        if globals.dryRun {
            diagnostics.error("note: \(model) has conflict detection: each record is sent with its _version, read in "
                + "pages of keys and versions first")
            return .success(nil)
        }
        let client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return .failure(BulkStop(status: usage(error)))
        }
        do {
            return .success(try VersionTable.read(model: model, builder: builder, client: client))
        } catch {
            switch error {
            case .request(let error): return .failure(BulkStop(status: usage(error)))
            case .execution(let error):
                diagnostics.error(error)
                diagnostics.error("reading the _version of each \(model) record failed; nothing was changed")
                return .failure(BulkStop(status: error.exitStatus))
            case .errors(let errors):
                diagnostics.graphQLErrors(errors)
                diagnostics.error("reading the _version of each \(model) record failed; nothing was changed")
                return .failure(BulkStop(status: .graphQLErrors))
            case .cancelled:
                diagnostics.error("interrupted while reading the versions; nothing was changed")
                return .failure(BulkStop(status: .interrupted))
            }
        }
    }
}

/// A bulk job that stops before it starts, with its status (the reason is printed).
struct BulkStop: Error {
    let status: ExitCode
}
