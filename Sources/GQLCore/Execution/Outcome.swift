/// How an operation ended, in kinds a front end tells apart (a command line by its exit code).
public enum ResultKind: Sendable, Equatable, CaseIterable {
    /// Everything worked.
    case success
    /// GraphQL errors and no data (or another failure of the operation itself).
    case graphQLErrors
    /// The input cannot be sent as given (an unusable endpoint URL).
    case invalidInput
    /// Partial result: data and errors together.
    case partial
    /// The requested item does not exist: the root field is null with no errors (get/update/delete).
    case notFound
    /// An HTTP error status or a response that is not GraphQL.
    case httpError
    /// A network failure or timeout.
    case network
    /// Stopped by the user.
    case cancelled
}

/// Why a request produced no GraphQL response.
public enum ExecutionError: Error, Sendable, Equatable, ParameterizedMessage {
    /// No HTTP response, after `attempts` tries.
    case transport(TransportError, attempts: Int)
    /// A non-2xx status (after any retries).
    case httpStatus(HTTPStatusError)
    /// A 2xx body that is not a GraphQL response, or lacks the expected result.
    case invalidResponse(InvalidResponseError)
    /// Stopped by the user.
    case cancelled

    /// A one-line message for people, each parameter named by `name`.
    public func message(naming name: (Parameter) -> String) -> String { message(naming: name, remedy: \.label) }

    /// The message with parameters named by `name` and the remedy of an HTTP status by `remedy`.
    public func message(naming name: (Parameter) -> String, remedy: (Remedy) -> String) -> String {
        switch self {
        case .transport(let error, let attempts):
            let message = error.message(naming: name)
            return attempts > 1 ? "\(message) (after \(attempts) attempts)" : message
        case .httpStatus(let error): return error.message(naming: name, remedy: remedy)
        case .invalidResponse(let error): return error.description
        case .cancelled: return "cancelled"
        }
    }

    /// What kind of failure this is: HTTP and non-GraphQL responses, network failures and timeouts,
    /// cancelled; an invalid URL is invalid input.
    public var kind: ResultKind {
        switch self {
        case .transport(.cancelled, _), .cancelled: return .cancelled
        case .transport(.invalidURL, _): return .invalidInput
        case .transport(.responseTooLarge, _), .transport(.badResponse, _): return .httpError  // the server's answer
        case .transport: return .network
        case .httpStatus, .invalidResponse: return .httpError
        }
    }
}

/// What one operation's response means for its result, once decoded.
public enum RequestOutcome: Sendable, Equatable {
    /// The result at the decode path (possibly `.null` when null does not mean "not found").
    case success(JSONValue)
    /// The root field is null with no errors, and the caller said that means "not found".
    case notFound
    /// Some data came back together with errors.
    case partial(JSONValue, [GraphQLError])
    /// Errors and no data.
    case failed([GraphQLError])
    /// Data without the path the caller chose (see ``GraphQLRequest/decodePathIsGiven``).
    case pathNotFound(DecodePathError)

    /// When the result should be one record (get, create, update, delete) but is a list, string, number or boolean:
    /// the response is not what the schema promises.
    public func recordShapeProblem(at decodePath: [String]) -> InvalidResponseError? {
        let value: JSONValue
        switch self {
        case .success(let result), .partial(let result, _): value = result
        case .notFound, .failed, .pathNotFound: return nil
        }
        if value.isNull || value.objectValue != nil { return nil }
        return .notAsPromised("\((["data"] + decodePath).joined(separator: ".")) is \(value.kindDescription); expected an object or null")
    }

    /// Success, not found, partial or GraphQL errors.
    public var kind: ResultKind {
        switch self {
        case .success: return .success
        case .notFound: return .notFound
        case .partial: return .partial
        case .failed, .pathNotFound: return .graphQLErrors
        }
    }
}

extension GraphQLResponse {
    /// Interprets the response for an operation whose result sits at `decodePath` (e.g. `["getPost"]`;
    /// empty for `gqlc raw`, meaning all of `data`).
    ///
    /// - No errors: the value at the path, or ``RequestOutcome/notFound`` when it is null and `nullIsNotFound`
    ///   (get, update, delete). A missing path is an invalid response.
    /// - Errors: ``RequestOutcome/partial(_:_:)`` when the path holds a non-null value (for an empty path:
    ///   `data` has at least one non-null member), else ``RequestOutcome/failed(_:)``.
    ///
    /// When `pathIsGiven` (the caller chose the path), data without the path is ``RequestOutcome/pathNotFound(_:)``.
    public func outcome(
        decodePath: [String], nullIsNotFound: Bool, pathIsGiven: Bool = false
    ) throws(InvalidResponseError) -> RequestOutcome {
        let value: JSONValue?
        do {
            value = try self.value(at: decodePath)
        } catch {
            guard errors.isEmpty else { return .failed(errors) }
            if pathIsGiven, let data, !data.isNull { return .pathNotFound(error) }
            throw .missingResult(error)
        }
        guard errors.isEmpty else {
            guard let value, Self.holdsData(value, isRoot: decodePath.isEmpty) else { return .failed(errors) }
            return .partial(value, errors)
        }
        let result = value ?? .null
        if result.isNull && nullIsNotFound { return .notFound }
        return .success(result)
    }

    /// Non-null, and for the root `data` object, with at least one non-null member.
    private static func holdsData(_ value: JSONValue, isRoot: Bool) -> Bool {
        if value.isNull { return false }
        if isRoot, case .object(let object) = value { return object.contains { !$0.value.isNull } }
        return true
    }
}
