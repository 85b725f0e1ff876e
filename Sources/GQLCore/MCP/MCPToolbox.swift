/// Gives the client that a request on `model` is sent with (nil: a custom operation); the model's auth rules
/// choose its auth mode. The front end resolves endpoint and auth as for its other commands.
public typealias MCPClientProvider = (_ model: Model?) throws(MCPToolError) -> GraphQLClient

/// What a tool call returns on success: its structured result and a one-line summary for people.
struct MCPToolOutput {
    var structured: JSONObject
    var summary: String
}

/// Carries out tool calls with the core's own operations: the request builder (argument checks, documents,
/// filters, keys), the client (retries, auth, scrubbing), the list pager and its resume tokens.
struct MCPToolbox {
    let schema: ModelSchema
    let builder: RequestBuilder
    let configuration: MCPConfiguration
    let clientFor: MCPClientProvider
    /// Clients made so far, by model name (`""` for custom operations).
    private(set) var clients: [String: GraphQLClient] = [:]

    init(schema: ModelSchema, configuration: MCPConfiguration, clientFor: @escaping MCPClientProvider) {
        self.schema = schema
        self.builder = RequestBuilder(schema: schema)
        self.configuration = configuration
        self.clientFor = clientFor
    }

    /// Every secret the clients made so far know, to scrub from anything sent back.
    var redactor: Redactor { Redactor(secrets: clients.values.flatMap(\.endpoint.redactor.secrets)) }

    mutating func call(_ tool: MCPToolName, _ given: JSONObject) throws(MCPToolError) -> MCPToolOutput {
        let arguments = try MCPArguments(tool, given)
        switch tool {
        case .listModels:
            let names = configuration.models
            return MCPToolOutput(
                structured: ["models": .array(names.map(JSONValue.string))],
                summary: "\(names.count) model\(names.count == 1 ? "" : "s"): " + names.joined(separator: ", "))
        case .describeModel:
            let model = try servedModel(arguments)
            let description = schema.description(of: model)
            return MCPToolOutput(
                structured: description.objectValue ?? [:],
                summary: "\(model.name): key " + model.primaryKey.fields.joined(separator: ", ")
                    + ", \(model.fields.filter { !$0.type.isModel }.count) fields")
        case .getRecord: return try get(arguments)
        case .listRecords: return try list(arguments)
        case .countRecords: return try count(arguments)
        case .runQuery: return try custom(arguments, kind: .query)
        case .runMutation: return try custom(arguments, kind: .mutation)
        case .createRecord, .updateRecord, .deleteRecord: return try write(tool, arguments)
        }
    }

    // MARK: Reads

    private mutating func get(_ arguments: MCPArguments) throws(MCPToolError) -> MCPToolOutput {
        let model = try servedModel(arguments)
        let key = try arguments.key()
        let include = try arguments.strings("include")
        let fields = try selection(arguments)
        let (request, tree) = try built { () throws(RequestBuildError) in
            (try builder.get(model.name, key: .fields(key), include: include, fields: fields),
             try builder.includeTree(model.name, paths: include))
        }
        let client = try self.client(for: model)
        let describe = "\(model.name) with key " + key.joined(separator: ", ")
        guard case .value(var record, let errors) = try send(request, client: client, mayRetry: true, nullIsNotFound: true) else {
            return MCPToolOutput(structured: ["record": .null], summary: "no \(describe)")
        }
        record = try completed(record, model: model.name, include: tree, fields: fields, client: client)
        return partial(MCPToolOutput(structured: ["record": record], summary: describe), errors)
    }

    private mutating func list(_ arguments: MCPArguments) throws(MCPToolError) -> MCPToolOutput {
        let model = try servedModel(arguments)
        let limit = try arguments.count("limit", maximum: configuration.listLimitCap) ?? configuration.listLimit
        let include = try arguments.strings("include")
        let fields = try selection(arguments)
        let requests = try listing(arguments, model: model, include: include, fields: fields)
        let tree = try built { () throws(RequestBuildError) in try builder.includeTree(model.name, paths: include) }
        let givenToken = try arguments.string("next_token")
        let start: ListPosition
        do {
            start = try givenToken.map { text throws(ResumeTokenError) in
                try ResumeToken.position(text, listing: requests.listingKey, pageSize: Defaults.pageSize)
            } ?? ListPosition(token: nil, pageSize: Defaults.pageSize)
        } catch {
            throw MCPToolError("next_token: \(error.description)")
        }
        let client = try self.client(for: model)
        var pager = ListPager(
            client: client, connectionPath: [requests.rootField], pageSize: Defaults.pageSize, limit: limit, start: start,
            makeRequest: requests.page)
        pager.pagesAreExact = requests.filter == nil  // as gqlc list: a limit asks for no more than it needs
        let budget = configuration.maxResultBytes
        let completer = ConnectionCompleter(builder: builder, client: client)
        var items: [JSONValue] = []
        var bytes = 0
        var cut = false
        let result = pager.run { page in
            var records = page
            if !tree.isEmpty {
                records = try completer.complete(.array(page), model: model.name, include: tree, fields: fields).arrayValue ?? page
            }
            for (index, record) in records.enumerated() {
                let size = record.serialized(.compact).utf8.count
                // Whole records only, and at least one, however large.
                if !items.isEmpty && bytes + size > budget {
                    cut = true
                    throw ListPageCut(kept: index)
                }
                items.append(record)
                bytes += size
            }
        }
        let token = result.resumeToken(listing: requests.listingKey)
        var problem: String?
        var refusedToken = false
        switch result.stop {
        case .endOfList, .limitReached, .cancelled: break
        case .graphQLErrors(let errors):
            problem = Self.message(errors)
            refusedToken = givenToken != nil && result.pages == 1
        case .partial(let errors): problem = Self.message(errors)
        case .failed(let error): problem = error.message(naming: configuration.settingName)
        case .consumerFailed(let error): problem = Self.includedListMessage(error, naming: configuration.settingName)
        }
        if case .unavailable = result.resume {
            problem = (problem.map { $0 + "; " } ?? "") + "the server repeated a nextToken; there is no safe point to resume from"
        }
        if let problem, items.isEmpty {
            var message = problem
            if refusedToken {
                // Never hand back a token the server refused as if it were a place to resume.
                message += "; check that next_token comes from a listing of the same model, where, filter and index"
            } else if let token {
                message += "; continue with next_token \(token)"
            }
            throw MCPToolError(message)
        }
        var structured: JSONObject = ["items": .array(items), "next_token": token.map(JSONValue.string) ?? .null]
        var summary = "\(items.count) \(model.name) record\(items.count == 1 ? "" : "s")"
        if let problem {
            structured["errors"] = [.string(problem)]
            summary += "; the listing stopped early: \(problem)"
        }
        if token != nil {
            summary += cut
                ? "; cut at \(bytes) bytes, the size limit: pass next_token to continue" : "; more: pass next_token to continue"
        } else if problem == nil {
            summary += "; the end of the list"
        }
        return MCPToolOutput(structured: structured, summary: summary)
    }

    private mutating func count(_ arguments: MCPArguments) throws(MCPToolError) -> MCPToolOutput {
        let model = try servedModel(arguments)
        let requests = try listing(arguments, model: model, include: [], fields: .keysOnly)
        let pager = ListPager(
            client: try client(for: model), connectionPath: [requests.rootField], pageSize: Defaults.pageSize,
            makeRequest: requests.page)
        let result = pager.run { _ in }
        let reason: String
        switch result.stop {
        case .endOfList:
            return MCPToolOutput(
                structured: ["count": .number(JSONNumber(result.delivered))],
                summary: "\(result.delivered) \(model.name) record\(result.delivered == 1 ? "" : "s") (\(result.pages) page\(result.pages == 1 ? "" : "s") read)")
        case .limitReached, .cancelled: reason = "it was stopped"
        case .graphQLErrors(let errors), .partial(let errors): reason = Self.message(errors)
        case .failed(let error): reason = error.message(naming: configuration.settingName)
        case .consumerFailed(let error): reason = "\(error)"
        }
        throw MCPToolError("counted \(result.delivered) records before the listing stopped, so the count is incomplete: \(reason)")
    }

    private mutating func custom(_ arguments: MCPArguments, kind: CustomOperation.Kind) throws(MCPToolError) -> MCPToolOutput {
        let name = try arguments.requiredString("name")
        let values = try arguments.object("arguments") ?? JSONObject()
        let include = try arguments.strings("include")
        let (request, tree, resultModel) = try built { () throws(RequestBuildError) in
            let operation = try builder.customOperation(name, kind: kind)
            let resultModel: String? = if case .model(let name) = operation.result.type { name } else { nil }
            return (try builder.custom(name, kind: kind, arguments: RecordValues(input: .object(values)), include: include),
                    try builder.customIncludeTree(operation, paths: include), resultModel)
        }
        let client = try self.client(for: nil)
        // A custom mutation may not be idempotent: it is sent once.
        guard case .value(var value, let errors) = try send(request, client: client, mayRetry: kind == .query, nullIsNotFound: false)
        else { return MCPToolOutput(structured: ["result": .null], summary: "\(name) returned null") }
        if let resultModel { value = try completed(value, model: resultModel, include: tree, fields: .all, client: client) }
        return partial(MCPToolOutput(structured: ["result": value], summary: "the result of \(name)"), errors)
    }

    // MARK: Writes

    private mutating func write(_ tool: MCPToolName, _ arguments: MCPArguments) throws(MCPToolError) -> MCPToolOutput {
        let model = try servedModel(arguments)
        let request: GraphQLRequest
        var key: [String] = []
        let verb: String
        switch tool {
        case .createRecord:
            let values = RecordValues(input: .object(try arguments.requiredObject("fields")))
            request = try built { () throws(RequestBuildError) in try builder.create(model.name, values: values) }
            key = model.primaryKey.fields.compactMap { field in
                request.variables["input"]?[field].flatMap { $0.stringValue ?? $0.numberText }.map { "\(field)=\($0)" }
            }
            verb = "created"
        case .updateRecord:
            key = try arguments.key()
            let values = RecordValues(input: .object(try arguments.requiredObject("fields")))
            request = try built { () throws(RequestBuildError) in try builder.update(model.name, key: .fields(key), values: values) }
            verb = "updated"
        default:
            key = try arguments.key()
            request = try built { () throws(RequestBuildError) in try builder.delete(model.name, key: .fields(key)) }
            verb = "deleted"
        }
        let described = "\(model.name) with key " + key.joined(separator: ", ")
        let client = try self.client(for: model)
        // A create carries its key, so a second try fails instead of duplicating; an update or delete is sent once.
        let mayRetry = tool == .createRecord && configuration.retryCreates
        let outcome: Fetched
        do {
            outcome = try sendWrite(request, client: client, mayRetry: mayRetry, nullIsNotFound: true)
        } catch .refused(let errors) where errors.contains(where: \.isConditionFailure) {
            throw MCPToolError(tool == .createRecord ? "\(model.name) already has a record with this key (\(described))" : "no \(described)")
        } catch .uncertain(let message, let when) {
            let action = tool == .createRecord ? "create" : tool == .updateRecord ? "update" : "delete"
            throw MCPToolError("\(message); the \(action) may have been applied \(when): check with get_record on \(described)")
        } catch {
            throw MCPToolError(error.message)
        }
        guard case .value(let record, let errors) = outcome else { throw MCPToolError("no \(described)") }
        return partial(MCPToolOutput(structured: ["record": record], summary: "\(verb) \(described)"), errors)
    }

    // MARK: Helpers

    /// The model named by `model`, which must be one of those served.
    private func servedModel(_ arguments: MCPArguments) throws(MCPToolError) -> Model {
        let name = try arguments.requiredString("model")
        guard configuration.models.contains(name), let model = schema.models[name] else {
            let error = RequestBuildError.unknownModel(name, suggestion: Suggestions.closest(to: name, in: configuration.models))
            let served = schema.models[name] != nil ? "; this server serves only " + configuration.models.joined(separator: ", ") : ""
            throw MCPToolError(error.message(naming: parameterName) + served)
        }
        return model
    }

    private func selection(_ arguments: MCPArguments) throws(MCPToolError) -> FieldSelection {
        let paths = try arguments.strings("fields")
        return paths.isEmpty ? .all : .paths(paths)
    }

    /// The list or index query of `list_records` and `count_records`.
    private func listing(
        _ arguments: MCPArguments, model: Model, include: [String], fields: FieldSelection
    ) throws(MCPToolError) -> ListRequests {
        let filter = FilterInput(where: try arguments.strings("where"), json: try arguments.object("filter").map(JSONValue.object))
        let index = try arguments.string("index")
        var sort: SortDirection?
        if let text = try arguments.string("sort") {
            guard let direction = SortDirection(rawValue: text.uppercased()) else {
                throw MCPToolError("list_records: 'sort' must be asc or desc, not '\(text)'")
            }
            guard index != nil else { throw MCPToolError("list_records: 'sort' needs 'index': only an index query is ordered") }
            sort = direction
        }
        return try built { () throws(RequestBuildError) in
            if let index {
                return try builder.indexPages(model.name, index: index, filter: filter, sortDirection: sort, include: include, fields: fields)
            }
            return try builder.listPages(model.name, filter: filter, include: include, fields: fields)
        }
    }

    /// The client for a request on `model`, made once.
    private mutating func client(for model: Model?) throws(MCPToolError) -> GraphQLClient {
        let name = model?.name ?? ""
        if let client = clients[name] { return client }
        let client = try clientFor(model)
        clients[name] = client
        return client
    }

    /// What a request brought back.
    private enum Fetched {
        /// The result, with the errors that came with it (partial data).
        case value(JSONValue, errors: [GraphQLError])
        /// A null result where null means no record.
        case notFound
    }

    /// Sends a query; GraphQL errors without data and failed requests are errors.
    private func send(_ request: GraphQLRequest, client: GraphQLClient, mayRetry: Bool, nullIsNotFound: Bool) throws(MCPToolError) -> Fetched {
        do {
            return try sendWrite(request, client: client, mayRetry: mayRetry, nullIsNotFound: nullIsNotFound)
        } catch {
            throw MCPToolError(error.message)
        }
    }

    /// Sends `request`, telling a refusal (GraphQL errors) from a lost answer, after which a mutation may have been applied.
    private func sendWrite(
        _ request: GraphQLRequest, client: GraphQLClient, mayRetry: Bool, nullIsNotFound: Bool
    ) throws(SendFailure) -> Fetched {
        let response: GraphQLResponse
        do {
            response = try client.execute(request, mayRetry: mayRetry)
        } catch {
            let message = error.message(naming: configuration.settingName)
            switch error {
            case .transport(.timeout, _): throw .uncertain(message, when: "before it timed out")
            case .transport(.network, _): throw .uncertain(message, when: "before the connection failed")
            default: throw .failed(message)
            }
        }
        do {
            switch try response.outcome(decodePath: request.decodePath, nullIsNotFound: nullIsNotFound) {
            case .success(let value): return .value(value, errors: [])
            case .partial(let value, let errors): return .value(value, errors: errors)
            case .notFound, .pathNotFound: return .notFound
            case .failed(let errors): throw SendFailure.refused(errors)
            }
        } catch let failure as SendFailure {
            throw failure
        } catch {
            throw .failed("\(error)")
        }
    }

    /// `value` with its included has-many lists paged to their end.
    private func completed(
        _ value: JSONValue, model: String, include: IncludeTree, fields: FieldSelection, client: GraphQLClient
    ) throws(MCPToolError) -> JSONValue {
        guard !include.isEmpty else { return value }
        do {
            return try ConnectionCompleter(builder: builder, client: client).complete(value, model: model, include: include, fields: fields)
        } catch {
            throw MCPToolError(Self.includedListMessage(error, naming: configuration.settingName))
        }
    }

    /// The request the builder makes, or its error in the tools' words.
    private func built<T>(_ make: () throws(RequestBuildError) -> T) throws(MCPToolError) -> T {
        do {
            return try make()
        } catch {
            throw MCPToolError(error.message(naming: parameterName))
        }
    }

    /// A parameter as the tools' arguments name it.
    private func parameterName(_ parameter: Parameter) -> String {
        switch parameter {
        case .id, .key: "key"
        case .include: "include"
        case .fields: "fields"
        case .input: "fields"
        case .fieldValue: ""
        case .filter: "where"
        case .filterObject: "filter"
        case .condition: "condition"
        case .index: "index"
        default: configuration.settingName(parameter)
        }
    }

    /// The output, with the errors that came with partial data (the data is kept, the errors said).
    private func partial(_ output: MCPToolOutput, _ errors: [GraphQLError]) -> MCPToolOutput {
        guard !errors.isEmpty else { return output }
        var output = output
        output.structured["errors"] = .array(errors.map { .string($0.description) })
        output.summary += "; partial: the server also answered with errors: " + Self.message(errors)
        return output
    }

    static func message(_ errors: [GraphQLError]) -> String {
        errors.isEmpty ? "the server answered with errors" : errors.map(\.description).joined(separator: "; ")
    }

    private static func includedListMessage(_ error: any Error, naming name: (Parameter) -> String) -> String {
        let reason: String
        switch error {
        case let failure as IncludedPageError: reason = message(failure.errors)
        case let failure as ExecutionError: reason = failure.message(naming: name)
        case let failure as RequestBuildError: reason = failure.message(naming: name)
        default: reason = "\(error)"
        }
        return "following an included list failed: \(reason)"
    }
}

/// Why a request brought nothing back.
private enum SendFailure: Error {
    /// The server answered with errors and no data.
    case refused([GraphQLError])
    /// No usable answer.
    case failed(String)
    /// The answer was lost after the request may have reached the server.
    case uncertain(String, when: String)

    var message: String {
        switch self {
        case .refused(let errors): return MCPToolbox.message(errors)
        case .failed(let message), .uncertain(let message, _): return message
        }
    }
}
