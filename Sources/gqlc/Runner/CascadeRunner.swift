import GQLCore

/// `delete --cascade` and the orphan warning of a plain delete; the core's ``CascadeDelete`` does the work.
extension ModelCommandRunner {
    /// Plans, shows (`--dry-run`), confirms and carries out a cascading delete.
    mutating func deleteCascading(_ invocation: DeleteInvocation, request: GraphQLRequest) -> ExitCode {
        let model = invocation.model
        let key = request.inputKey(fields: keyFields(of: model))
        var cascade: CascadeDelete
        let columns: [String]
        do {
            cascade = CascadeDelete(builder: builder, client: try execution.client())
            columns = try recordColumns(model, fields: invocation.fields)
        } catch {
            return usage(error)
        }
        cascade.fields = Self.selection(invocation.fields)
        let plan: CascadeDelete.Node
        do {
            plan = try cascade.plan(model: model, key: key)
        } catch {
            return report(error, model: model, key: key, deleted: 0)
        }
        let others = plan.count - 1
        if globals.dryRun {
            session.console.output.write(Self.tree(plan).joined(separator: "\n") + "\n")
            session.console.error.write(
                "would delete \(plan.count) record\(plan.count == 1 ? "" : "s"); nothing was deleted (\(GlobalOptions.dryRunOption.flagName))\n")
            return .success
        }
        if others > 0 && !invocation.confirmed, let status = Confirmation.check(
            "delete \(model) \(BulkMessages.describe(key)) and the \(others) record\(others == 1 ? "" : "s") under it?",
            refusal: "\(others) record\(others == 1 ? "" : "s") would be deleted with \(model) \(BulkMessages.describe(key)) "
                + "(see \(GlobalOptions.dryRunOption.flagName)); pass \(GlobalOptions.yesOption.flagName) to delete them (standard input is not a terminal, so gqlc cannot ask)",
            session: session, diagnostics: diagnostics)
        {
            return status
        }
        let progress = ProgressReporter.make(console: session.console, globals: globals)
        let (deleted, root, failure) = cascade.execute(plan) { deleted in progress?.update(items: deleted, failed: 0) }
        progress?.clear()
        if let root { ResultPrinter(console: session.console, globals: globals, columns: columns).print(root) }
        if let failure { return report(failure, model: model, key: key, deleted: deleted) }
        if others > 0 { session.console.error.write("deleted \(deleted) records: \(Self.counts(plan))\n") }
        return .success
    }

    /// After a plain delete: which associations still point at the record (one `--limit 1` listing each).
    func warnOrphans(_ model: String, request: GraphQLRequest) {
        var execution = self.execution
        guard let client = try? execution.client() else { return }
        let key = request.inputKey(fields: keyFields(of: model))
        guard let orphans = try? CascadeDelete(builder: builder, client: client).orphans(model: model, key: key) else { return }
        for orphan in orphans {
            diagnostics.error(
                "warning: \(orphan.model) records (\(model).\(orphan.field)) are left pointing at the deleted \(model) "
                    + "\(BulkMessages.describe(key)); \(DeleteCommand.cascade.flagName) deletes them with it")
        }
    }

    private func report(_ failure: CascadeDelete.Failure, model: String, key: JSONObject, deleted: Int) -> ExitCode {
        let status: ExitCode
        switch failure {
        case .notFound:
            diagnostics.error("no \(model) with key \(BulkMessages.describe(key))")
            return .notFound
        case .gone(let goneModel, let goneKey):
            diagnostics.error("no \(goneModel) with key \(BulkMessages.describe(goneKey)) any more: it was deleted while the cascade ran")
            status = .graphQLErrors
        case .request(let error):
            diagnostics.error(error.commandLineMessage)
            status = .usage
        case .execution(let error):
            diagnostics.error(error)
            status = error.exitStatus
        case .errors(let errors):
            diagnostics.graphQLErrors(errors)
            status = .graphQLErrors
        }
        if deleted > 0 { diagnostics.error("stopped after deleting \(deleted) records under \(model) \(BulkMessages.describe(key))") }
        return status
    }

    /// The plan as an indented tree, children grouped by association with their counts:
    /// `Post id=p1`, `  comments: 4 Comment`, `    …`.
    static func tree(_ plan: CascadeDelete.Node) -> [String] {
        var lines = ["\(plan.model) \(BulkMessages.describe(plan.key))"]
        func groups(_ nodes: [CascadeDelete.Node], depth: Int) {
            var order: [String] = []
            var byField: [String: [CascadeDelete.Node]] = [:]
            for node in nodes {
                let field = node.field ?? ""
                if byField[field] == nil { order.append(field) }
                byField[field, default: []].append(node)
            }
            for field in order {
                let members = byField[field] ?? []
                let model = members.first?.model ?? ""
                lines.append(String(repeating: "  ", count: depth) + "\(field): \(members.count) \(model)")
                groups(members.flatMap(\.children), depth: depth + 1)
            }
        }
        groups(plan.children, depth: 1)
        return lines
    }

    /// `1 Post, 4 Comment, 2 PostTags`.
    static func counts(_ plan: CascadeDelete.Node) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        func add(_ node: CascadeDelete.Node) {
            node.children.forEach(add)
            if counts[node.model] == nil { order.append(node.model) }
            counts[node.model, default: 0] += 1
        }
        add(plan)
        return order.map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
    }
}
