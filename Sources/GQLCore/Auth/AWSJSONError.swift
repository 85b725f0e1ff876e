/// The error in an AWS JSON-protocol answer (Cognito, the SSO portal), read as amplify-js reads it: the type from
/// `x-amzn-ErrorType`, else the body's `__type` or `code`, cut at `:` or `,`, keeping what follows a `#`
/// (`…#NotAuthorizedException` → `NotAuthorizedException`); the message from the body's `message` or `Message`.
struct AWSJSONError: Equatable {
    /// The error's type; nil when the answer names none.
    var type: String?
    var message: String?

    /// Reads `response`, whose body parsed as `json` (nil when it is not JSON).
    init(_ response: HTTPResponse, json: JSONValue?) {
        var type = response.headers.value(for: "x-amzn-errortype") ?? json?["__type"]?.stringValue ?? json?["code"]?.stringValue ?? ""
        type = String(type.split(whereSeparator: { $0 == ":" || $0 == "," }).first ?? "")
        if let hash = type.lastIndex(of: "#") { type = String(type[type.index(after: hash)...]) }
        self.type = type.isEmpty ? nil : type
        message = json?["message"]?.stringValue ?? json?["Message"]?.stringValue
    }
}
