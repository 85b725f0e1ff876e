/// Deletes a record with what would otherwise be left pointing at it (``CascadeDelete``), through an
/// ``APIContext``'s one client: it plans (queries only), asks `confirm` before deleting anything beyond the record,
/// then deletes children before parents and reports what happened as ``CascadeDeleteEvent``s.
///
/// Ends `.success`; `.notFound` when the record does not exist; `.graphQLErrors` when the server refused a delete, a
/// planned record was gone, or the answer to the question was no; `.invalidInput` when a request could not be built
/// or the question could not be asked; else the failed request's kind (`.cancelled` when interrupted).
public struct CascadeDeleteOperation: Sendable {
    /// The model of the record.
    public let model: String
    /// The record's key, by field.
    public let key: JSONObject
    /// What the record's own delete returns (it is reported); the others return everything.
    public var fields: FieldSelection = .all
    /// Plan only: report `.planned` and delete nothing.
    public var plansOnly = false

    /// A cascading delete of `model`'s record with `key`, reporting the records with `fields`.
    public init(_ model: String, key: JSONObject, fields: FieldSelection = .all) {
        self.model = model
        self.key = key
        self.fields = fields
    }

    /// Plans, confirms (only when there is more than the record to delete) and deletes.
    public func run(
        in context: APIContext, confirm: (CascadeDelete.Node) -> ConfirmationAnswer, events: (CascadeDeleteEvent) -> Void
    ) -> ResultKind {
        var cascade = CascadeDelete(builder: context.builder, client: context.client)
        cascade.fields = fields
        let plan: CascadeDelete.Node
        do {
            plan = try cascade.plan(model: model, key: key)
        } catch {
            events(.failed(error, deleted: 0))
            return error.kind
        }
        events(.planned(plan))
        if plansOnly { return .success }
        if plan.count > 1 {
            let answer = confirm(plan)
            if let kind = answer.refusal { return kind }
        }
        let (deleted, root, failure) = withoutActuallyEscaping(events) { events in
            cascade.execute(plan) { deleted in events(.progress(deleted: deleted)) }
        }
        events(.deletionsEnded)
        if let root { events(.result(root)) }
        if let failure {
            events(.failed(failure, deleted: deleted))
            return failure.kind
        }
        if plan.count > 1 { events(.deleted(deleted, byModel: plan.countsByModel)) }
        return .success
    }
}

/// What a ``CascadeDeleteOperation`` reports, in order.
public enum CascadeDeleteEvent: Sendable {
    /// The plan: the record and, under it, what is deleted with it.
    case planned(CascadeDelete.Node)
    /// How many records were deleted so far.
    case progress(deleted: Int)
    /// The deletes are over (what follows is the result).
    case deletionsEnded
    /// The record as its delete returned it.
    case result(JSONValue)
    /// Planning or deleting stopped, after `deleted` records were deleted.
    case failed(CascadeDelete.Failure, deleted: Int)
    /// Every planned record was deleted (when there was more than the record): how many, and of which models.
    case deleted(Int, byModel: [(model: String, count: Int)])
}

/// The answer to a question asked before something is deleted.
public enum ConfirmationAnswer: Sendable, Equatable {
    case yes
    /// Anything but yes.
    case no
    /// Nobody can answer (no terminal), and nothing said yes beforehand.
    case cannotAsk
    /// Interrupted while waiting for the answer.
    case interrupted

    /// How the operation ends when the answer is not yes; nil for yes.
    public var refusal: ResultKind? {
        switch self {
        case .yes: nil
        case .no: .graphQLErrors
        case .cannotAsk: .invalidInput
        case .interrupted: .cancelled
        }
    }
}

extension CascadeDelete.Failure {
    /// How an operation that stopped for this ends.
    public var kind: ResultKind {
        switch self {
        case .notFound: .notFound
        case .gone, .errors: .graphQLErrors
        case .request: .invalidInput
        case .execution(let error): error.kind
        }
    }
}

extension CascadeDelete.Node {
    /// How many records of each model the plan holds, deepest first, each model once: `[(Post, 1), (Comment, 4)]`
    /// in the order a delete meets them.
    public var countsByModel: [(model: String, count: Int)] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        func add(_ node: CascadeDelete.Node) {
            node.children.forEach(add)
            if counts[node.model] == nil { order.append(node.model) }
            counts[node.model, default: 0] += 1
        }
        add(self)
        return order.map { ($0, counts[$0] ?? 0) }
    }
}

extension CascadeDelete.Node {
    /// The plan as an indented tree, children grouped by association with their counts:
    /// `Post id=p1`, `  comments: 4 Comment`, `    …`.
    public var outline: [String] {
        var lines = ["\(model) \(key.keyText)"]
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
                lines.append(String(repeating: "  ", count: depth) + "\(field): \(members.count) \(members.first?.model ?? "")")
                groups(members.flatMap(\.children), depth: depth + 1)
            }
        }
        groups(children, depth: 1)
        return lines
    }
}

extension CascadeDeleteOperation {
    /// A cascading delete from the record `delete` deletes (its key checked by it), reporting the records with `fields`.
    public init(from delete: DeleteOperation, fields: FieldSelection = .all) {
        self.init(delete.change.model, key: delete.request.inputKey(fields: delete.change.keyFields), fields: fields)
    }
}
