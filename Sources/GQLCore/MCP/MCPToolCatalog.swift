/// The tools an MCP server offers: names, descriptions that say what each call costs, and the JSON Schemas of
/// their arguments and results (`tools/list`).
public enum MCPToolName: String, Sendable, CaseIterable {
    case listModels = "list_models"
    case describeModel = "describe_model"
    case getRecord = "get_record"
    case listRecords = "list_records"
    case countRecords = "count_records"
    case runQuery = "run_query"
    case createRecord = "create_record"
    case updateRecord = "update_record"
    case deleteRecord = "delete_record"
    case runMutation = "run_mutation"

    /// Whether the tool changes data: offered only when writes are allowed.
    public var writes: Bool {
        switch self {
        case .createRecord, .updateRecord, .deleteRecord, .runMutation: return true
        default: return false
        }
    }

    /// The argument names the tool takes (anything else is refused).
    var arguments: [String] {
        switch self {
        case .listModels: return []
        case .describeModel: return ["model"]
        case .getRecord: return ["model", "key", "include", "fields"]
        case .listRecords: return ["model", "where", "filter", "index", "sort", "limit", "fields", "include", "next_token"]
        case .countRecords: return ["model", "where", "filter", "index"]
        case .runQuery, .runMutation: return ["name", "arguments", "include"]
        case .createRecord: return ["model", "fields"]
        case .updateRecord: return ["model", "key", "fields"]
        case .deleteRecord: return ["model", "key"]
        }
    }
}

/// One tool's entry in `tools/list`.
struct MCPToolCatalog {
    let schema: ModelSchema
    let configuration: MCPConfiguration

    /// The custom operations of `kind` a tool may run.
    func operations(_ kind: CustomOperation.Kind) -> [String] {
        schema.customOperations.filter { $0.kind == kind }.map(\.name)
    }

    /// The tools offered: the read tools, and the write tools when writes are allowed; `run_query` and
    /// `run_mutation` only when the schema has custom operations of that kind.
    var offered: [MCPToolName] {
        MCPToolName.allCases.filter { tool in
            if tool.writes && !configuration.allowWrites { return false }
            if tool == .runQuery { return !operations(.query).isEmpty }
            if tool == .runMutation { return !operations(.mutation).isEmpty }
            return true
        }
    }

    /// `tools/list`'s `tools`.
    var listing: JSONValue { .array(offered.map(entry)) }

    func entry(_ tool: MCPToolName) -> JSONValue {
        var object: JSONObject = [
            "name": .string(tool.rawValue), "title": .string(title(tool)), "description": .string(description(tool)),
            "inputSchema": inputSchema(tool), "outputSchema": outputSchema(tool),
        ]
        let destructive = tool == .updateRecord || tool == .deleteRecord || tool == .runMutation
        object["annotations"] = [
            "title": .string(title(tool)), "readOnlyHint": .bool(!tool.writes), "destructiveHint": .bool(destructive),
            "idempotentHint": .bool(!tool.writes), "openWorldHint": .bool(false),
        ]
        return .object(object)
    }

    private func title(_ tool: MCPToolName) -> String {
        switch tool {
        case .listModels: return "List models"
        case .describeModel: return "Describe a model"
        case .getRecord: return "Get a record"
        case .listRecords: return "List records"
        case .countRecords: return "Count records"
        case .runQuery: return "Run a custom query"
        case .createRecord: return "Create a record"
        case .updateRecord: return "Update a record"
        case .deleteRecord: return "Delete a record"
        case .runMutation: return "Run a custom mutation"
        }
    }

    /// What the tool does and what one call costs.
    func description(_ tool: MCPToolName) -> String {
        let cap = configuration.listLimitCap
        switch tool {
        case .listModels:
            return "The names of the app's data models. Cost: none; reads the schema only, nothing is sent to the API."
        case .describeModel:
            return "One model's fields and types, primary key, associations (with their foreign keys), secondary indexes, "
                + "GraphQL operation names and auth rules, as gqlc prints them for scripts. "
                + "Cost: none; reads the schema only."
        case .getRecord:
            return "One record by its primary key ('key': an object of the key fields), or null when none has it. "
                + "'include' adds associations by dot path (comments, post.blog); 'fields' narrows the fields returned. "
                + "Cost: one GraphQL query (a DynamoDB GetItem), plus one query per further page of each included list."
        case .listRecords:
            return "Records of a model, filtered by 'where' (gqlc expressions such as \"rating>=4\", \"title^=Swift\", "
                + "\"post=p1\"; AND-ed) and/or 'filter' (an AppSync filter object). At most 'limit' records "
                + "(default \(configuration.listLimit), at most \(cap)); a result larger than "
                + "\(configuration.maxResultBytes) bytes is cut earlier, at a record boundary. 'next_token' in the result "
                + "continues the listing when passed back with the same model, where, filter and index (null: the end). "
                + "Cost: without 'index' each page is a DynamoDB Scan that reads \(Defaults.pageSize) records before the "
                + "filter applies, so a selective filter may read many pages to fill one result; with 'index' (a query "
                + "field from describe_model, with a where clause FIELD=VALUE on its partition key) a Query reads only "
                + "that partition."
        case .countRecords:
            return "How many records match 'where'/'filter'. Cost: AppSync has no count operation, so this pages "
                + "through every matching record (the whole table without 'index', as a Scan) asking only for the key "
                + "fields: it reads as much as listing them all; prefer 'index' on a large table."
        case .runQuery:
            return "Runs one of the schema's custom queries ('name': " + operations(.query).joined(separator: ", ")
                + ") with 'arguments' checked against their types before sending. Cost: one request; what it reads is "
                + "up to the query's resolver."
        case .createRecord:
            return "Creates one record from 'fields' (an object of field values; a belongs-to association name sets its "
                + "foreign key). A model keyed by id gets a generated id when none is given. Cost: one mutation."
        case .updateRecord:
            return "Changes the given 'fields' of the one record with 'key'; other fields are left as they are. It never "
                + "creates a record: a missing key is an error. Cost: one mutation."
        case .deleteRecord:
            return "Deletes the one record with 'key' and returns it. Never cascades: related records are left as they "
                + "are. Cost: one mutation."
        case .runMutation:
            return "Runs one of the schema's custom mutations ('name': " + operations(.mutation).joined(separator: ", ")
                + ") once, with 'arguments' checked against their types; it is never retried. Cost: one request; what it "
                + "changes is up to the mutation's resolver."
        }
    }

    // MARK: Schemas

    private func inputSchema(_ tool: MCPToolName) -> JSONValue {
        var properties = JSONObject()
        var required: [String] = []
        let model: JSONValue = [
            "type": "string", "enum": .array(configuration.models.map(JSONValue.string)),
            "description": "The model's name, as list_models gives it.",
        ]
        let key: JSONValue = [
            "type": "object", "description": "The record's primary-key fields and their values, e.g. {\"id\": \"p1\"}.",
            "additionalProperties": ["type": ["string", "number"]],
        ]
        let paths = { (text: String) -> JSONValue in ["type": "array", "items": ["type": "string"], "description": .string(text)] }
        let include = paths("Associations to fetch with each record, by dot path: comments, post.blog.")
        let fields = paths("Only these fields (key fields are always kept), by dot path: title, comments.items.content.")
        let whereList = paths("gqlc filter expressions, AND-ed: FIELD=V, !=, <, <=, >, >=, ^= (begins with), *= (contains), "
            + "!*=, FIELD=LOW..HIGH, FIELD? (has a value), FIELD!? (has none). A belongs-to name stands for its foreign key.")
        let filter: JSONValue = ["type": "object", "description": "An AppSync filter object, e.g. {\"rating\": {\"ge\": 4}}; AND-ed with where."]
        let index: JSONValue = ["type": "string", "description": "A secondary index's query field (describe_model lists them)."]
        let values: JSONValue = ["type": "object", "description": "Field values, by field name."]
        switch tool {
        case .listModels:
            break
        case .describeModel:
            properties["model"] = model
            required = ["model"]
        case .getRecord:
            (properties["model"], properties["key"], properties["include"], properties["fields"]) = (model, key, include, fields)
            required = ["model", "key"]
        case .listRecords, .countRecords:
            (properties["model"], properties["where"], properties["filter"], properties["index"]) = (model, whereList, filter, index)
            if tool == .listRecords {
                properties["sort"] = [
                    "type": "string", "enum": .array(SortDirection.allCases.map { .string($0.rawValue.lowercased()) }),
                    "description": "An index query's order by its sort key.",
                ]
                properties["limit"] = [
                    "type": "integer", "minimum": 1, "maximum": .number(JSONNumber(configuration.listLimitCap)),
                    "default": .number(JSONNumber(configuration.listLimit)),
                ]
                (properties["fields"], properties["include"]) = (fields, include)
                properties["next_token"] = ["type": "string", "description": "The next_token of an earlier result, to continue it."]
            }
            required = ["model"]
        case .runQuery, .runMutation:
            let names = operations(tool == .runQuery ? .query : .mutation)
            properties["name"] = ["type": "string", "enum": .array(names.map(JSONValue.string))]
            properties["arguments"] = ["type": "object", "description": "The operation's arguments, by name."]
            properties["include"] = paths("Associations to fetch, when the operation returns a model.")
            required = ["name"]
        case .createRecord:
            (properties["model"], properties["fields"]) = (model, values)
            required = ["model", "fields"]
        case .updateRecord:
            (properties["model"], properties["key"], properties["fields"]) = (model, key, values)
            required = ["model", "key", "fields"]
        case .deleteRecord:
            (properties["model"], properties["key"]) = (model, key)
            required = ["model", "key"]
        }
        return Self.object(properties, required: required, closed: true)
    }

    private func outputSchema(_ tool: MCPToolName) -> JSONValue {
        let record: JSONValue = ["type": "object"]
        switch tool {
        case .listModels:
            return Self.object(["models": ["type": "array", "items": ["type": "string"]]], required: ["models"])
        case .describeModel:
            let names = ["name", "pluralName", "primaryKey", "fields", "associations", "indexes", "operations", "authRules"]
            var properties = JSONObject()
            for name in names {
                properties[name] = ["type": ["name", "pluralName"].contains(name) ? "string"
                    : ["primaryKey", "operations"].contains(name) ? "object" : "array"]
            }
            return Self.object(properties, required: names)
        case .getRecord:
            return Self.object(["record": ["type": ["object", "null"]]], required: ["record"])
        case .listRecords:
            return Self.object(
                ["items": ["type": "array", "items": record], "next_token": ["type": ["string", "null"]]],
                required: ["items", "next_token"])
        case .countRecords:
            return Self.object(["count": ["type": "integer", "minimum": 0]], required: ["count"])
        case .runQuery, .runMutation:
            return Self.object(["result": [:]], required: ["result"])
        case .createRecord, .updateRecord, .deleteRecord:
            return Self.object(["record": record], required: ["record"])
        }
    }

    /// `{"type": "object", "properties": …, "required": …}`; `closed` refuses other members.
    private static func object(_ properties: JSONObject, required: [String], closed: Bool = false) -> JSONValue {
        var object: JSONObject = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { object["required"] = .array(required.map(JSONValue.string)) }
        if closed { object["additionalProperties"] = false }
        return .object(object)
    }
}
