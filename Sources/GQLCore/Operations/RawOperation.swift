/// Sends a GraphQL document written by hand, to any GraphQL server: parsed and checked locally first
/// (``RequestBuilder/raw(document:fileName:variables:operationName:decodePath:)``), then sent once and its result
/// reported at the decode path.
///
/// Ends `.success` with the result, `.partial` when data came with errors, `.graphQLErrors` when the data lacks the
/// decode path given (``OperationEvent/decodePathNotFound(_:_:)``), else the request's failure. A query is retried
/// as any query; a mutation only when ``retriesMutations`` (nothing tells whether repeating it is safe). A
/// subscription is not sent this way: its request is run by ``RealtimeSubscriber``.
public struct RawOperation: Sendable {
    /// The request, with the whole document and the chosen operation's name.
    public let request: GraphQLRequest
    /// The variables given that the chosen operation does not declare: they are sent, and servers ignore them.
    public let undeclaredVariables: [VariableProblem]
    /// Whether a mutation may be sent again after an attempt without an answer.
    public var retriesMutations = false
    /// Whether the response envelope is reported as the server sent it, instead of the result.
    public var reportsEnvelope = false

    /// Parses and checks `document` with its variables; throws what is wrong with them. Nothing is sent.
    public init(
        document: String, fileName: String? = nil, variables: JSONObject, operationName: String? = nil,
        decodePath: [String] = []
    ) throws(RawRequestError) {
        request = try RequestBuilder.raw(
            document: document, fileName: fileName, variables: variables, operationName: operationName, decodePath: decodePath)
        undeclaredVariables = RequestBuilder.undeclaredVariables(document: document, variables: variables, operationName: operationName)
    }

    /// Sends the request through `context`'s client and reports the result to `events`.
    public func run(in context: APIContext, events: OperationEventSink) -> ResultKind {
        var single = SingleRequest(request: request, nullIsNotFound: false, expectsRecord: false, reportsEnvelope: reportsEnvelope)
        single.mayRetry = RetryPolicy.mayRetry(request.operationType, retryMutations: retriesMutations, mutationIsIdempotent: false)
        return single.run(client: context.client, events: events) { value in
            _ = events(.result(value))
            return .success
        } notFound: {}
    }
}

extension RawOperation {
    /// A document's variables: the object read from a file first (`file`), then each `NAME=VALUE` (a string) or
    /// `NAME:=JSON` assignment in order; later values replace earlier ones.
    public static func variables(file: JSONValue?, assignments: [String]) throws(RawVariablesError) -> JSONObject {
        var variables = JSONObject()
        if let file {
            guard case .object(let object) = file else { throw .notAnObject(found: file.kindDescription) }
            variables = object
        }
        for text in assignments {
            let assignment: FieldAssignment
            do {
                assignment = try FieldAssignment.parse(text)
            } catch {
                // The parser is shared with the model commands, whose syntax errors speak of FIELDs.
                guard case .syntax = error else { throw .assignment(text, error) }
                throw .syntax(text)
            }
            switch assignment.value {
            case .text(let string): variables[assignment.field] = .string(string)
            case .json(let value): variables[assignment.field] = value
            }
        }
        return variables
    }
}

/// Why a document's variables cannot be made from what was given, with the option that gave them.
public enum RawVariablesError: Error, Sendable, Equatable, ParameterizedMessage {
    /// The variables file holds a JSON value that is not an object (`found`: `an array`).
    case notAnObject(found: String)
    /// An assignment's JSON is invalid.
    case assignment(String, RequestBuildError)
    /// An assignment is neither `NAME=VALUE` nor `NAME:=JSON`.
    case syntax(String)

    /// `variables file: expected a JSON object of variables, found an array`, `variable 'x:=[1': invalid JSON …`, with
    /// the options named by `name`.
    public func message(naming name: (Parameter) -> String) -> String { message(naming: name, remedy: \.label) }

    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String {
        switch self {
        case .notAnObject(let found): "\(name(.variablesFile)): expected a JSON object of variables, found \(found)"
        case .assignment(let text, let error): "\(name(.variable)) '\(text)': \(error.message(naming: name, remedy: remedy))"
        case .syntax(let text):
            "\(name(.variable)) '\(text)': expected NAME=VALUE (a string) or NAME:=JSON, e.g. \(name(.variable)) id=1000 or "
                + "\(name(.variable)) first:=5"
        }
    }
}
