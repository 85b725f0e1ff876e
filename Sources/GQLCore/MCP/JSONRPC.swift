/// JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line, no batches (MCP 2025-06-18 dropped
/// them), requests answered by their `id`, notifications never answered.
public enum JSONRPC {
    /// One line read from the client, decoded.
    public enum Incoming: Sendable, Equatable {
        /// A request: it gets exactly one response with the same `id`.
        case request(id: JSONValue, method: String, params: JSONObject)
        /// A notification (no `id`): it gets no response.
        case notification(method: String, params: JSONObject)
        /// A response to a request the server sent; this server sends none, so it is ignored.
        case response
    }

    /// The error object of an error response.
    public struct ErrorObject: Error, Sendable, Equatable {
        public var code: Int
        public var message: String
        public var data: JSONValue?

        public init(code: Int, message: String, data: JSONValue? = nil) {
            self.code = code
            self.message = message
            self.data = data
        }

        /// Invalid JSON was received.
        public static func parseError(_ detail: String) -> ErrorObject { ErrorObject(code: -32700, message: "parse error: \(detail)") }
        /// The JSON is not a valid request object.
        public static func invalidRequest(_ detail: String) -> ErrorObject {
            ErrorObject(code: -32600, message: "invalid request: \(detail)")
        }
        /// The method does not exist.
        public static func methodNotFound(_ method: String) -> ErrorObject {
            ErrorObject(code: -32601, message: "method not found: \(method)")
        }
        /// Invalid method parameters.
        public static func invalidParams(_ detail: String) -> ErrorObject { ErrorObject(code: -32602, message: "invalid params: \(detail)") }
        /// MCP's code for a resource URI the server does not have.
        public static func resourceNotFound(_ uri: String) -> ErrorObject {
            ErrorObject(code: -32002, message: "resource not found: \(uri)", data: ["uri": .string(uri)])
        }
    }

    /// Decodes one line; a failure carries the id to answer with (null when it could not be read).
    public static func decode(_ line: [UInt8]) -> Result<Incoming, DecodeFailure> {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return .failure(DecodeFailure(id: .null, error: .parseError(error.description)))
        }
        guard case .object(let object) = value else {
            let detail = value.arrayValue != nil ? "batches are not supported; send one message per line" : "expected an object"
            return .failure(DecodeFailure(id: .null, error: .invalidRequest(detail)))
        }
        let id = object["id"]
        if let id, !Self.isValidID(id) {
            return .failure(DecodeFailure(id: .null, error: .invalidRequest("'id' must be a string or a number")))
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return .failure(DecodeFailure(id: id ?? .null, error: .invalidRequest("'jsonrpc' must be \"2.0\"")))
        }
        guard let methodValue = object["method"] else {
            if object["result"] != nil || object["error"] != nil { return .success(.response) }
            return .failure(DecodeFailure(id: id ?? .null, error: .invalidRequest("no 'method'")))
        }
        guard case .string(let method) = methodValue else {
            return .failure(DecodeFailure(id: id ?? .null, error: .invalidRequest("'method' must be a string")))
        }
        let params: JSONObject
        switch object["params"] {
        case nil, .null?: params = JSONObject()
        case .object(let given)?: params = given
        default: return .failure(DecodeFailure(id: id ?? .null, error: .invalidParams("'params' must be an object")))
        }
        guard let id else { return .success(.notification(method: method, params: params)) }
        return .success(.request(id: id, method: method, params: params))
    }

    /// Why a line could not be handled, and the id its error response carries.
    public struct DecodeFailure: Error, Sendable, Equatable {
        public var id: JSONValue
        public var error: ErrorObject
    }

    /// `{"jsonrpc":"2.0","id":…,"result":…}`.
    public static func response(id: JSONValue, result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…[,"data":…]}}`.
    public static func errorResponse(id: JSONValue, error: ErrorObject) -> JSONValue {
        var body: JSONObject = ["code": .number(JSONNumber(error.code)), "message": .string(error.message)]
        if let data = error.data { body["data"] = data }
        return ["jsonrpc": "2.0", "id": id, "error": .object(body)]
    }

    /// MCP requires ids to be strings or integers (never null).
    private static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string: return true
        case .number(let number): return number.isInteger
        default: return false
        }
    }
}
