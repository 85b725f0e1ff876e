/// Deletes a record and what would otherwise be left pointing at nothing, children first, as Amplify's guide for
/// relational models says: hasMany children (recursively, through every page), the hasOne child, and many-to-many
/// join records (the join model is a hasMany child whose own fields are belongsTo), then the record.
///
/// ```swift
/// let cascade = CascadeDelete(builder: builder, client: client)
/// let plan = try cascade.plan(model: "Post", key: ["id": "p1"])   // lists, deletes nothing
/// let outcome = cascade.execute(plan)                                // deepest records first
/// ```
public struct CascadeDelete: Sendable {
    public let builder: RequestBuilder
    public let client: GraphQLClient
    /// What the root record's delete returns (it is printed); the others return everything, as a plain delete does.
    public var fields: FieldSelection = .all

    public init(builder: RequestBuilder, client: GraphQLClient) {
        self.builder = builder
        self.client = client
    }

    /// A record to delete and, under it, what points at it.
    public struct Node: Sendable, Equatable {
        public var model: String
        public var key: JSONObject
        /// The association of the parent this record was found through (nil for the root).
        public var field: String?
        public var children: [Node]
        /// The record's `_version` as planning read it (a model with conflict detection), sent with its delete.
        public var version: Int? = nil

        /// This record and every record under it.
        public var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
    }

    /// Why planning or deleting stopped.
    public enum Failure: Error, Sendable, Equatable {
        case request(RequestBuildError)
        case execution(ExecutionError)
        case errors([GraphQLError])
        /// The record to delete does not exist.
        case notFound
        /// A record planned for deletion was gone when its turn came (deleted by someone else meanwhile).
        case gone(model: String, key: JSONObject)
    }

    // MARK: Planning

    /// Lists everything under the record (its children, theirs, …); sends only queries.
    public func plan(model: String, key: JSONObject) throws(Failure) -> Node {
        var visited: Set<String> = []
        let root: Model
        do {
            root = try builder.model(named: model)
        } catch {
            throw .request(error)
        }
        guard let record = try fetch(root, key: key), !ConflictDetection.isDeleted(.object(record)) else { throw .notFound }
        return try node(model: model, key: key, record: record, field: nil, visited: &visited)
    }

    private func node(
        model name: String, key: JSONObject, record: JSONObject?, field: String?, visited: inout Set<String>
    ) throws(Failure) -> Node {
        visited.insert(Self.identity(name, key))
        var node = Node(model: name, key: key, field: field, children: [])
        node.version = record.flatMap { ConflictDetection.version(of: .object($0)) }
        let model: Model
        do {
            model = try builder.model(named: name)
        } catch {
            throw .request(error)
        }
        for association in model.relationshipFields {
            guard let relation = builder.schema.relationship(of: association), relation.kind != .belongsTo else { continue }
            for (childKey, childRecord) in try children(of: model, key: key, record: record, relation: relation) {
                if visited.contains(Self.identity(relation.relatedModel, childKey)) { continue }
                node.children.append(
                    try self.node(
                        model: relation.relatedModel, key: childKey, record: childRecord, field: association.name,
                        visited: &visited))
            }
        }
        return node
    }

    /// The key (and record) of each record the relation finds for the parent.
    private func children(
        of parent: Model, key: JSONObject, record: JSONObject?, relation: Relationship
    ) throws(Failure) -> [(JSONObject, JSONObject?)] {
        let related: Model
        do {
            related = try builder.model(named: relation.relatedModel)
        } catch {
            throw .request(error)
        }
        switch relation.keyHolder {
        case .thisModel:
            // Gen 1 hasOne: the parent holds the child's key.
            var childKey = JSONObject()
            for (index, field) in related.primaryKey.fields.enumerated() where index < relation.foreignKeys.count {
                guard let value = record?[relation.foreignKeys[index]], !value.isNull else { return [] }
                childKey[field] = value
            }
            guard let child = try fetch(related, key: childKey), !ConflictDetection.isDeleted(.object(child)) else { return [] }
            return [(childKey, child)]
        case .relatedModel:
            var found: [(JSONObject, JSONObject?)] = []
            try list(related, matching: Self.filter(relation: relation, parent: parent, key: key), limit: nil) { record in
                // A soft-deleted child (conflict detection) is already gone for its parent.
                guard !ConflictDetection.isDeleted(.object(record)) else { return }
                found.append((related.key(of: record), record))
            }
            return found
        }
    }

    /// `{"postId": {"eq": "p1"}}`, or an `and` of one `eq` per foreign-key field.
    static func filter(relation: Relationship, parent: Model, key: JSONObject) -> JSONValue {
        var terms: [JSONValue] = []
        for (index, foreignKey) in relation.foreignKeys.enumerated() where index < parent.primaryKey.fields.count {
            terms.append(.object([foreignKey: .object(["eq": key[parent.primaryKey.fields[index]] ?? .null])]))
        }
        return terms.count == 1 ? terms[0] : .object(["and": .array(terms)])
    }

    // MARK: Orphans

    /// The associations under which at least one record points at the record (one listing each, stopped at the
    /// first match): what a delete without cascade leaves pointing at nothing.
    public func orphans(model name: String, key: JSONObject) throws(Failure) -> [(field: String, model: String)] {
        let model: Model
        do {
            model = try builder.model(named: name)
        } catch {
            throw .request(error)
        }
        var result: [(field: String, model: String)] = []
        for association in model.relationshipFields {
            guard let relation = builder.schema.relationship(of: association), relation.keyHolder == .relatedModel,
                let related = builder.schema.models[relation.relatedModel]
            else { continue }
            var any = false
            try list(related, matching: Self.filter(relation: relation, parent: model, key: key), limit: 1) { _ in any = true }
            if any { result.append((association.name, related.name)) }
        }
        return result
    }

    // MARK: Deleting

    /// Deletes the plan's records, deepest first. Stops at the first failure; returns how many were deleted and the
    /// root record as it was. `progress` is told the number deleted after each delete.
    public func execute(_ plan: Node, progress: ((_ deleted: Int) -> Void)? = nil) -> (deleted: Int, root: JSONValue?, failure: Failure?) {
        var deleted = 0
        var root: JSONValue?
        func visit(_ node: Node) -> Failure? {
            for child in node.children {
                if let failure = visit(child) { return failure }
            }
            do throws(Failure) {
                let record = try delete(
                    node.model, key: node.key, fields: node.field == nil ? fields : .all, version: node.version)
                deleted += 1
                progress?(deleted)
                if node.field == nil { root = record }
                return nil
            } catch {
                return error
            }
        }
        let failure = visit(plan)
        return (deleted, root, failure)
    }

    // MARK: Requests

    /// Deletes one record as a bulk delete does (``ItemWorker``): retried after a failure, and a record missing after
    /// that retry counts as deleted (the first attempt did it and its answer was lost).
    private func delete(_ model: String, key: JSONObject, fields: FieldSelection, version: Int?) throws(Failure) -> JSONValue {
        let request: GraphQLRequest
        do {
            request = try builder.delete(model, key: .values(key), fields: fields, version: version)
        } catch {
            throw .request(error)
        }
        let worker = ItemWorker(operation: .delete, retry: client.retry, cancellation: client.cancellation)
        client.trace?(.operation(document: request.query, variables: request.variables, operationName: request.operationName))
        // The lookup tells a delete refused after gqlc's own retry (its lost first attempt did it) from a real refusal.
        let lookup = try? builder.get(model, key: .values(key), fields: .keysOnly)
        switch worker.perform(BulkRequest(request: request, lookup: lookup, key: key), client: client) {
        case .done(let record): return record
        case .failed(.notFound), .failed(.alreadyExists): throw .gone(model: model, key: key)
        case .failed(.errors(let errors)): throw .errors(errors)
        case .failed(.execution(let error)): throw .execution(error)
        case .failed(.invalid(let message)): throw .execution(.invalidResponse(.notGraphQL(message)))
        case .failed(.refusedAfterRetry):
            throw .errors([GraphQLError(message: "the delete was refused after gqlc's own retry, whose earlier attempt may have been applied")])
        case .interrupted, .notSent: throw .execution(.cancelled)
        }
    }

    private func fetch(_ model: Model, key: JSONObject) throws(Failure) -> JSONObject? {
        let request: GraphQLRequest
        do {
            request = try builder.get(model.name, key: .values(key), fields: planningFields(model))
        } catch {
            throw .request(error)
        }
        return try value(of: request, nullIsNotFound: true)?.objectValue
    }

    private func value(of request: GraphQLRequest, nullIsNotFound: Bool) throws(Failure) -> JSONValue? {
        let response: GraphQLResponse
        do {
            response = try client.execute(request)  // only queries come here: they are retried
        } catch {
            throw .execution(error)
        }
        let outcome: RequestOutcome
        do {
            outcome = try response.outcome(decodePath: request.decodePath, nullIsNotFound: nullIsNotFound)
        } catch {
            throw .execution(.invalidResponse(error))
        }
        switch outcome {
        case .success(let value), .partial(let value, _): return value
        case .notFound: return nil
        case .failed(let errors): throw .errors(errors)
        case .pathNotFound(let error): throw .execution(.invalidResponse(.missingResult(error)))
        }
    }

    private func list(
        _ model: Model, matching filter: JSONValue, limit: Int?, _ each: (JSONObject) -> Void
    ) throws(Failure) {
        let requests: ListRequests
        do {
            requests = try builder.listPages(model.name, filter: FilterInput(json: filter), fields: planningFields(model))
        } catch {
            throw .request(error)
        }
        let pager = ListPager(
            client: client, connectionPath: [requests.rootField], limit: limit,
            makeRequest: { size, token in requests.page(limit: size, nextToken: token) })
        let result = pager.run { items in
            for item in items { if let record = item.objectValue { each(record) } }
        }
        switch result.stop {
        case .endOfList, .limitReached: return
        case .cancelled: throw .execution(.cancelled)
        case .failed(let error): throw .execution(error)
        case .graphQLErrors(let errors), .partial(let errors): throw .errors(errors)
        case .consumerFailed: return
        }
    }

    /// What planning reads of a `model` record: its key, and the foreign keys it holds of a child of its own (a
    /// Gen 1 hasOne), which lead to the grandchildren. Children found through their own foreign keys need only
    /// the parent's key.
    func planningFields(_ model: Model) -> FieldSelection {
        var held: [String] = []
        for association in model.relationshipFields {
            guard let relation = builder.schema.relationship(of: association), relation.kind != .belongsTo,
                relation.keyHolder == .thisModel
            else { continue }
            for field in relation.foreignKeys where model.field(named: field) != nil && !model.isKeyField(field) {
                if !held.contains(field) { held.append(field) }
            }
        }
        return held.isEmpty ? .keysOnly : .paths(held)
    }

    private static func identity(_ model: String, _ key: JSONObject) -> String {
        model + JSONValue.object(key).serialized(.compact)
    }
}
