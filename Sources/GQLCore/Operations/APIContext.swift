/// What the operations of one run share, resolved once before the first request: the model schema, the request
/// builder over it and one client (its endpoint, auth, credentials, retry policy, clock and cancellation already
/// chosen). An operation that needs a second request (an included list's next page, a follow-up get) sends it
/// through the same client, so credentials are never resolved twice.
public struct APIContext: Sendable {
    /// The models the requests are built from.
    public let schema: ModelSchema
    /// Builds every request of the run.
    public let builder: RequestBuilder
    /// Sends every request of the run.
    public let client: GraphQLClient

    /// A context over `schema` that sends through `client`.
    public init(schema: ModelSchema, client: GraphQLClient) {
        self.schema = schema
        builder = RequestBuilder(schema: schema)
        self.client = client
    }
}
