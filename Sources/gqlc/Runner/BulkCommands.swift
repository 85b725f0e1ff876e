import GQLCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How each bulk command turns an input item into its mutation.
extension ModelCommandRunner {
    /// `create MODEL --input FILE` with several records.
    func bulkCreate(_ invocation: CreateInvocation, input: inout BulkInput) -> ExitCode {
        let (builder, model, assignments) = (self.builder, invocation.model, invocation.assignments)
        let keyFields = self.keyFields(of: model)
        let fields = Self.selection(invocation.fields)
        return runBulk(
            .create, model: model, settings: invocation.bulk, fields: invocation.fields, input: &input,
            prepare: { item in
                Self.prepared(item) { value throws(RequestBuildError) in
                    let request = try builder.create(
                        model, values: RecordValues(assignments: assignments, input: value), fields: fields)
                    let key = request.inputKey(fields: keyFields)
                    return BulkRequest(request: request, lookup: try? builder.get(model, key: .values(key)), key: key)
                }
            })
    }

    /// `update MODEL --input FILE` without `--id`/`--key`: each record carries its key.
    mutating func bulkUpdate(_ invocation: UpdateInvocation, input: inout BulkInput) -> ExitCode {
        let (builder, model, assignments) = (self.builder, invocation.model, invocation.assignments)
        let keyFields = self.keyFields(of: model)
        let fields = Self.selection(invocation.fields)
        let versions: VersionTable?
        switch bulkVersions(model) {
        case .success(let table): versions = table
        case .failure(let stop): return stop.status
        }
        return runBulk(
            .update, model: model, settings: invocation.bulk, fields: invocation.fields, input: &input,
            prepare: { item in
                let prepared = Self.prepared(item) { value throws(RequestBuildError) in
                    let request = try builder.update(
                        model, key: nil, values: RecordValues(assignments: assignments, input: value), fields: fields)
                    let key = request.inputKey(fields: keyFields)
                    return BulkRequest(request: request, lookup: try? builder.get(model, key: .values(key)), key: key)
                }
                return versions?.versioned(prepared, model: model) ?? prepared
            })
    }

    /// `delete MODEL --input FILE`: keys (`{"id":"p1"}`, or a bare `"p1"` for a one-field key) or whole records.
    mutating func bulkDelete(_ invocation: DeleteInvocation, input: inout BulkInput) -> ExitCode {
        let versions: VersionTable?
        switch bulkVersions(invocation.model) {
        case .success(let table): versions = table
        case .failure(let stop): return stop.status
        }
        let prepare = deletePreparer(invocation.model, fields: invocation.fields)
        return runBulk(
            .delete, model: invocation.model, settings: invocation.bulk, fields: invocation.fields, input: &input,
            prepare: { item in versions?.versioned(prepare(item), model: invocation.model) ?? prepare(item) })
    }

    /// Runs a bulk job over the items of an `--input` file (the rest of a regular file is read for `--rejects`).
    func runBulk(
        _ operation: BulkOperation, model: String, settings: BulkSettings, fields: [String]?, input: inout BulkInput,
        prepare: (BulkInputItem) -> Result<BulkRequest, BulkPrepareFailure>
    ) -> ExitCode {
        runBulk(
            operation, model: model, settings: settings, fields: fields, inputName: input.name,
            readRest: input.isRegularFile, next: { () throws(BulkInputError) in try input.next() }, prepare: prepare)
    }

    /// Builds a delete from a key object, a record, or a bare key value.
    func deletePreparer(_ model: String, fields paths: [String]?) -> (BulkInputItem) -> Result<BulkRequest, BulkPrepareFailure> {
        let builder = self.builder
        let fields = Self.selection(paths)
        let keyFields = self.keyFields(of: model)
        let versioned = schema.models[model]?.conflictDetection != nil
        return { item in
            Self.prepared(item) { value throws(RequestBuildError) in
                let key: KeyInput
                var version: Int?
                switch value {
                case .object(let object):
                    key = .values(object)
                    // `delete --where` lists each record's `_version` with its key (`--input` reads them again).
                    if versioned { version = ConflictDetection.version(of: value) }
                case .string(let text): key = .id(text)
                case .number(let number): key = .id(number.text)
                default: throw .notAnObject(found: value.kindDescription)
                }
                let request = try builder.delete(model, key: key, fields: fields, version: version)
                let sent = request.inputKey(fields: keyFields)
                return BulkRequest(request: request, lookup: try? builder.get(model, key: .values(sent)), key: sent)
            }
        }
    }

    /// Parses an item and builds its request; either failure is the item's, phrased for the command line.
    static func prepared(
        _ item: BulkInputItem, _ build: (JSONValue) throws(RequestBuildError) -> BulkRequest
    ) -> Result<BulkRequest, BulkPrepareFailure> {
        if item.isOversized { return .failure(BulkPrepareFailure(oversizedMessage)) }
        let value: JSONValue
        do {
            value = try item.parse()
        } catch {
            return .failure(BulkPrepareFailure("invalid JSON at \(error.line):\(error.column): \(error.message)"))
        }
        do {
            return .success(try build(value))
        } catch {
            return .failure(BulkPrepareFailure(error.commandLineMessage))
        }
    }

    /// Why an item over ``BulkInputItem/maximumSize`` failed, and that it is not in the rejects file.
    static let oversizedMessage = "larger than \(BulkInputItem.maximumSize >> 20) MiB, the most gqlc reads as one record; "
        + "it was read past and not sent (nor copied to \(BulkOptions.rejects.flagName))"

    // MARK: delete --where / --filter

    /// Lists what `--where`/`--filter` match (asking for the key fields only, as `list --count` does), then deletes
    /// them after a confirmation.
    mutating func deleteMatching(_ invocation: DeleteInvocation) -> ExitCode {
        let requests: ListRequests
        do {
            // How the deleted records will be printed is checked before anything is listed or asked.
            _ = try bulkColumns(invocation.model, fields: invocation.fields)
            requests = try builder.listPages(
                invocation.model, filter: FilterInput(where: invocation.matching, json: try filterJSON(invocation.filter)),
                fields: .keysOnly)
        } catch {
            return usage(anyError: error)
        }
        warnContradictions(invocation.model, invocation.matching, option: ListCommand.whereOption.flagName)
        // The listing's pages count on the progress line; the deletes start a line of their own.
        let (client, progress): (GraphQLClient, ProgressReporter?)
        do {
            (client, progress) = try listingClient()
        } catch {
            return usage(error)
        }
        let listed = schema.models[invocation.model]
        var keys: [JSONObject] = []
        let pager = ListPager(
            client: client, connectionPath: [requests.rootField], pageSize: Defaults.pageSize,
            makeRequest: { limit, token in requests.page(limit: limit, nextToken: token) })
        let result = pager.run { items in
            for item in items {
                guard case .object(let record) = item, let listed else { continue }
                guard listed.conflictDetection != nil else {
                    keys.append(listed.key(of: record))
                    continue
                }
                // Conflict detection: soft-deleted records are gone already; the others are deleted at their version.
                if ConflictDetection.isDeleted(item) { continue }
                var key = listed.key(of: record)
                key[ConflictDetection.versionField] = record[ConflictDetection.versionField]
                keys.append(key)
            }
        }
        progress?.clear()
        switch result.stop {
        case .endOfList, .limitReached: break
        case .cancelled:
            diagnostics.error("interrupted while listing the records to delete; nothing was deleted")
            return .interrupted
        case .graphQLErrors(let errors), .partial(let errors):
            diagnostics.graphQLErrors(errors)
            diagnostics.error("listing the records to delete failed; nothing was deleted")
            return result.exitStatus
        case .failed(let error):
            diagnostics.error(error)
            diagnostics.error("listing the records to delete failed; nothing was deleted")
            return result.exitStatus
        case .consumerFailed: return result.exitStatus
        }
        let noun = "\(invocation.model) record\(keys.count == 1 ? "" : "s")"
        if globals.dryRun {
            var writer = JSONWriter(style: .compact)
            for key in keys {
                writer.write(.object(key))
                writer.bytes.append(UInt8(ascii: "\n"))
            }
            session.console.output.write(bytes: writer.bytes)
            session.console.error.write("would delete \(keys.count) \(noun); nothing was deleted (\(GlobalOptions.dryRunOption.flagName))\n")
            return .success
        }
        if keys.isEmpty {
            session.console.error.write("no \(invocation.model) records match; nothing to delete\n")
            return .success
        }
        if !invocation.confirmed, let status = Confirmation.check(
            "delete \(keys.count) \(noun)?",
            refusal: "\(keys.count) \(noun) match; pass \(GlobalOptions.yesOption.flagName) to delete them (standard input is not a terminal, so gqlc cannot ask)",
            session: session, diagnostics: diagnostics)
        {
            return status
        }
        var index = 0
        let all = keys
        return runBulk(
            .delete, model: invocation.model, settings: invocation.bulk, fields: invocation.fields, inputName: "",
            readRest: true,
            next: { () throws(BulkInputError) -> BulkInputItem? in
                guard index < all.count else { return nil }
                defer { index += 1 }
                return BulkInputItem(index: index, line: 0, bytes: Array(JSONValue.object(all[index]).serialized(.compact).utf8))
            },
            prepare: deletePreparer(invocation.model, fields: invocation.fields))
    }
}

/// Asks a yes/no question on the terminal.
enum Confirmation {
    /// Whether standard input and standard error are a terminal, so that a question can be asked and answered.
    static var canAsk: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// Prints `question [y/N] ` on stderr and reads one line; true only for `y` or `yes`. False when it cannot ask.
    /// Ctrl-C while it waits throws ``RunFailure/interrupted``.
    static func ask(_ question: String, console: Console, cancellation: CancellationFlag?) throws(RunFailure) -> Bool {
        guard canAsk else { return false }
        console.error.write("\(question) [y/N] ")
        let prompter = Prompter(fromStandardInput: true, cancellation: cancellation)
        do {
            let answer = (try prompter.readLine(descriptor: STDIN_FILENO) ?? "").trimmingWhitespace.lowercased()
            return answer == "y" || answer == "yes"
        } catch {
            console.error.write("\n")
            throw error
        }
    }

    /// Asks, and says why nothing was deleted when the answer is not yes (or gqlc cannot ask); nil to go on, else
    /// the exit status: 1 for no, 2 when `--yes` is needed (`refusal` says so), 130 for Ctrl-C.
    static func check(
        _ question: String, refusal: @autoclosure () -> String, session: Session, diagnostics: Diagnostics
    ) -> ExitCode? {
        do {
            if try ask(question, console: session.console, cancellation: session.cancellation) { return nil }
        } catch {
            diagnostics.error("interrupted; nothing was deleted")
            return .interrupted
        }
        if canAsk {
            diagnostics.error("nothing was deleted")
            return .graphQLErrors
        }
        diagnostics.error(refusal())
        return .usage
    }
}
