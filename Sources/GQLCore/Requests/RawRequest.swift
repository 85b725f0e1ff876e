/// Why a GraphQL document given as it is cannot be sent.
public enum RawRequestError: Error, Sendable, Equatable, ParameterizedMessage {
    /// The document does not parse.
    case syntax(GraphQLSyntaxError)
    /// The document parses but is not valid (the first problem found).
    case invalid(GraphQLDocumentError)
    /// No operation can be chosen.
    case operation(OperationSelectionError)
    /// A variable is missing or not declared (the first problem found).
    case variable(VariableProblem)
    /// The decode path does not fit the operation's selections.
    case decodePath(DecodePathMismatch)

    /// A one-line message, with the options that fix a variable or a decode path named by `name`; ``report`` adds the
    /// document line for syntax and validation errors.
    public func message(naming name: (Parameter) -> String) -> String {
        switch self {
        case .syntax(let error): error.description
        case .invalid(let error): error.description
        case .operation(let error): error.message(naming: name)
        case .variable(let problem):
            switch problem {
            case .missing(let variable, _, _):
                "\(problem); give it with \(name(.variable)) \(variable)=VALUE or in \(name(.variablesFile))"
            case .undeclared: problem.description
            }
        case .decodePath(let mismatch): decodePathMessage(mismatch.path, mismatch, naming: name)
        }
    }
}

/// `decode path 'a.b': …`: a problem of the decode path, found before sending or in the answer.
func decodePathMessage(_ path: [String], _ problem: some CustomStringConvertible, naming name: (Parameter) -> String) -> String {
    "\(name(.decodePath)) '\(path.joined(separator: "."))': \(problem)"
}

extension RequestBuilder {
    /// A request for a document given as it is (not built from a model schema): parsed and checked locally,
    /// so that nothing is sent that the server would refuse for its shape.
    ///
    /// The operation is the one named `operationName`, or the only one. With several operations the whole
    /// document is sent and the chosen one is named, as GraphQL servers expect. `decodePath` is checked against
    /// the operation's selections; the request marks it as given, so that a response without it is
    /// ``RequestOutcome/pathNotFound(_:)`` rather than an invalid response. A subscription's request is run by
    /// ``RealtimeSubscriber`` (see ``RealtimeSubscription/init(request:)``), not sent over HTTP.
    ///
    /// ```swift
    /// let request = try RequestBuilder.raw(
    ///     document: "query { listPosts { items { id } } }", variables: [:], decodePath: ["listPosts", "items"])
    /// ```
    public static func raw(
        document text: String, fileName: String? = nil, variables: JSONObject, operationName: String? = nil,
        decodePath: [String] = []
    ) throws(RawRequestError) -> GraphQLRequest {
        let parsed: ParsedDocument
        do {
            parsed = try ParsedDocument(parsing: text, fileName: fileName)
        } catch {
            throw .syntax(error)
        }
        if let problem = parsed.validate().first { throw .invalid(problem) }
        let operation: OperationDefinition
        do {
            operation = try parsed.document.operation(named: operationName)
        } catch {
            throw .operation(error)
        }
        // A variable the operation does not declare is sent all the same: servers ignore it (GraphQL's
        // CoerceVariableValues reads the declared ones only), and one variables file may serve several operations.
        // ``undeclaredVariables(document:variables:operationName:)`` names them for a warning.
        if let problem = operation.variableProblems(in: variables).first(where: \.isMissing) { throw .variable(problem) }
        do {
            try parsed.document.checkDecodePath(decodePath, for: operation)
        } catch {
            throw .decodePath(error)
        }
        let sentName = parsed.document.operations.count > 1 ? operation.name : operationName
        var request = GraphQLRequest(
            query: text, variables: variables, operationName: sentName, operationType: operation.operationType,
            decodePath: decodePath)
        request.decodePathIsGiven = true
        return request
    }

    /// The variables given that the chosen operation does not declare (with the closest declared name), for a
    /// warning: ``raw(document:fileName:variables:operationName:decodePath:)`` sends them, and servers ignore them.
    /// Empty when the document does not parse or the operation is not found (`raw` reports those).
    public static func undeclaredVariables(
        document text: String, variables: JSONObject, operationName: String? = nil
    ) -> [VariableProblem] {
        guard let parsed = try? ParsedDocument(parsing: text, fileName: nil),
              let operation = try? parsed.document.operation(named: operationName)
        else { return [] }
        return operation.variableProblems(in: variables).filter { !$0.isMissing }
    }
}
