/// Where a writer's diagnostic lines go, one line each: the front end words them (a prefix, secrets masked, a GraphQL
/// error put in the terms of the argument that set its value, an error's remedy named as its own option or command).
public protocol DiagnosticSink {
    /// A failure, a warning or a note.
    func error(_ message: String)
    /// A failed request.
    func error(_ failure: ExecutionError)
    /// A request that could not be built.
    func error(_ failure: RequestBuildError)
    /// The server's GraphQL errors, each on its own line.
    func graphQLErrors(_ errors: [GraphQLError])
}
