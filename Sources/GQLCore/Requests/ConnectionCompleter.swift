/// Pages included hasMany lists to their end, so that a printed record holds every child.
///
/// A get or list with `--include comments` returns one page of each record's comments with a `nextToken`.
/// The completer finds every included connection whose `nextToken` is not null, at any depth
/// (`--include posts.comments` means each post's comments too), fetches the following pages through
/// the parent's get (``RequestBuilder/connectionPage(parent:key:field:include:fields:limit:nextToken:)``),
/// appends their items and sets `nextToken` to null.
public struct ConnectionCompleter {
    public let builder: RequestBuilder
    /// The page size of follow-up requests.
    public let pageLimit: Int
    /// Sends a request and returns the response's `data` object. The CLI backs it with the transport.
    public let fetch: (GraphQLRequest) throws -> JSONValue

    public init(builder: RequestBuilder, pageLimit: Int = Defaults.includedPageSize, fetch: @escaping (GraphQLRequest) throws -> JSONValue) {
        self.builder = builder
        self.pageLimit = pageLimit
        self.fetch = fetch
    }

    /// A completer that fetches each page through `client`; a page the server answers with errors throws
    /// ``IncludedPageError``, a failed request ``ExecutionError``.
    public init(builder: RequestBuilder, pageLimit: Int = Defaults.includedPageSize, client: GraphQLClient) {
        self.init(builder: builder, pageLimit: pageLimit) { request in
            let response = try client.execute(request)
            switch try response.outcome(decodePath: [], nullIsNotFound: false) {
            case .success(let data): return data
            case .partial(_, let errors), .failed(let errors): throw IncludedPageError(errors: errors)
            case .notFound, .pathNotFound: return .null
            }
        }
    }

    /// `value` (a `model` record, an array of them, or null) with every included list complete; `fields` is the
    /// selection the first request made, which the follow-up pages make too.
    public func complete(_ value: JSONValue, model: String, include: IncludeTree, fields: FieldSelection = .all) throws -> JSONValue {
        guard !include.isEmpty else { return value }
        switch value {
        case .object(let object):
            return .object(try completeRecord(object, model: model, include: include, fields: fields))
        case .array(let elements):
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for element in elements { result.append(try complete(element, model: model, include: include, fields: fields)) }
            return .array(result)
        default:
            return value
        }
    }

    private func completeRecord(_ record: JSONObject, model: String, include: IncludeTree, fields: FieldSelection) throws -> JSONObject {
        var record = record
        for branch in include.branches {
            guard let child = record[branch.field] else { continue }
            let inner = fields.below(branch.field)
            switch branch.kind {
            case .belongsTo, .hasOne:
                record[branch.field] = try complete(child, model: branch.relatedModel, include: branch.subtree, fields: inner)
            case .hasMany:
                guard case .object(var connection) = child else { continue }
                var items = connection["items"]?.arrayValue ?? []
                var token = connection["nextToken"]?.stringValue
                var seen: Set<String> = []
                while let current = token {
                    guard seen.insert(current).inserted else { throw RequestBuildError.repeatedNextToken(field: branch.field) }
                    let request = try builder.connectionPage(
                        parent: model, key: record, field: branch.field, include: branch.subtree, fields: inner,
                        limit: pageLimit, nextToken: current)
                    let page = try Self.value(at: request.decodePath, in: try fetch(request))
                    items += page["items"]?.arrayValue ?? []
                    token = page["nextToken"]?.stringValue
                }
                connection["items"] = try complete(
                    .array(items), model: branch.relatedModel, include: branch.subtree, fields: inner)
                if connection["nextToken"] != nil { connection["nextToken"] = .null }
                record[branch.field] = .object(connection)
            }
        }
        return record
    }

    /// The object at `path` inside a response's `data`.
    static func value(at path: [String], in data: JSONValue) throws(RequestBuildError) -> JSONObject {
        var current = data
        for (depth, key) in path.enumerated() {
            guard let next = current[key], !next.isNull else {
                throw .unexpectedResponse(path: path[...depth].joined(separator: "."), reason: "missing or null")
            }
            current = next
        }
        guard case .object(let object) = current else {
            throw .unexpectedResponse(path: path.joined(separator: "."), reason: "expected an object, found \(current.kindDescription)")
        }
        return object
    }
}

/// A further page of an included list came back with GraphQL errors.
public struct IncludedPageError: Error, Sendable, Equatable {
    public var errors: [GraphQLError]
}
