import GQLCore

/// Updates and deletes on a model with conflict detection: the `_version` they must send, the one line a
/// conflict prints, and what the server made of the write (an auto-merge, a soft delete).
extension ModelCommandRunner {
    /// The `_version` to send: nil for a model without conflict detection; `expected` when given; else read with
    /// one get of the key fields and version. `.stop` carries the status when the record cannot be written.
    mutating func versionToSend(_ model: String, record: RecordSelector, expected: Int?, verb: String) -> VersionLookup {
        guard schema.models[model]?.conflictDetection != nil else { return .version(nil) }
        if let expected { return .version(expected) }
        if globals.dryRun {
            diagnostics.error("note: \(model) has conflict detection: the update or delete is sent with the record's "
                + "_version, read with a get first (\(SharedOptions.expectedVersion.usageForm) gives it instead)")
            return .version(nil)
        }
        let lookup: GraphQLRequest
        do {
            lookup = try builder.get(model, key: keyInput(record), include: [], fields: .keysOnly)
        } catch {
            return .stop(usage(error))
        }
        let client: GraphQLClient
        do {
            client = try execution.client()
        } catch {
            return .stop(usage(error))
        }
        let outcome: RequestOutcome
        do {
            outcome = try client.execute(lookup).outcome(decodePath: lookup.decodePath, nullIsNotFound: true)
        } catch let error as ExecutionError {
            diagnostics.error(error)
            return .stop(error.exitStatus)
        } catch {
            diagnostics.error(commandLineMessage(error))
            return .stop(.httpError)
        }
        switch outcome {
        case .success(let value):
            if let note = ConflictDetection.deletedNote(value) {
                diagnostics.error("\(Self.describe(model, record)) was \(note); there is nothing to \(verb)")
                return .stop(.notFound)
            }
            guard let version = ConflictDetection.version(of: value) else {
                diagnostics.error("the server sent no _version for \(Self.describe(model, record)); pass \(SharedOptions.expectedVersion.usageForm)")
                return .stop(.graphQLErrors)
            }
            return .version(version)
        case .notFound:
            diagnostics.error(Self.notFound(model, record))
            return .stop(.notFound)
        case .partial(_, let errors), .failed(let errors):
            diagnostics.graphQLErrors(errors)
            diagnostics.error("reading the _version of \(Self.describe(model, record)) failed; nothing was changed")
            return .stop(.graphQLErrors)
        case .pathNotFound:
            return .stop(outcome.exitStatus)
        }
    }

    /// The one line for a write the conflict handler refused; nil when `errors` hold no conflict.
    static func conflictLine(_ errors: [GraphQLError], request: GraphQLRequest, model: Model, record: RecordSelector) -> String? {
        let input = request.variables["input"]?.objectValue ?? [:]
        guard let conflict = VersionConflict.find(in: errors, input: input, keyFields: model.primaryKey.fields) else { return nil }
        return "conflict: \(describe(model.name, record)) was changed by someone else: \(conflict.summary); nothing was "
            + "changed (get it again, or pass \(SharedOptions.expectedVersion.flagName) with the server's version to overwrite)"
    }

    /// After a write: says when the server auto-merged an update (its version moved by more than one) and that a
    /// delete is soft.
    static func noteVersionedResult(
        _ value: JSONValue, model: Model, record: RecordSelector, sent: Int?, deleting: Bool, diagnostics: Diagnostics
    ) {
        guard model.conflictDetection != nil else { return }
        let version = ConflictDetection.version(of: value)
        if deleting {
            diagnostics.error("note: the delete is soft: \(describe(model.name, record)) stays on the server with "
                + "_deleted: true" + (version.map { " (_version \($0))" } ?? "") + " until its TTL expires")
        } else if let sent, let version, version > sent + 1 {
            diagnostics.error("note: the server auto-merged this update into _version \(version) (\(sent) was sent, "
                + "someone else had changed the record): the record printed is the merged one")
        }
    }
}

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

/// What ``ModelCommandRunner/versionToSend(_:record:expected:verb:)`` found.
enum VersionLookup {
    /// Send this `_version` (nil: none, the model has no conflict detection).
    case version(Int?)
    /// Do not write; exit with this status (the reason is printed).
    case stop(ExitCode)
}
