import Testing
@testable import GQLCore

/// The real-time endpoint, the auth header object and the protocol messages, checked against the research
/// note's sources (amplify-js `appsyncUrl.ts`, `authHeaders.ts`, AppSync's documented messages) and against
/// signatures computed by the local server's independent Python verifier (DevServers/AppSyncLocal/appsync_local/sigv4.py).
@Suite struct RealtimeTests {
    // MARK: Endpoint

    @Test(arguments: [
        ("https://abcdefghijklmnopqrstuvwxyz.appsync-api.eu-west-1.amazonaws.com/graphql",
         "wss://abcdefghijklmnopqrstuvwxyz.appsync-realtime-api.eu-west-1.amazonaws.com/graphql"),
        ("https://abcdefghijklmnopqrstuvwxyz.appsync-api.cn-north-1.amazonaws.com.cn/graphql",
         "wss://abcdefghijklmnopqrstuvwxyz.appsync-realtime-api.cn-north-1.amazonaws.com.cn/graphql"),
        ("https://api.example.com/graphql", "wss://api.example.com/graphql/realtime"),
        ("https://api.example.com/graphql/", "wss://api.example.com/graphql/realtime"),
        ("http://127.0.0.1:4000/graphql", "ws://127.0.0.1:4000/graphql/realtime"),
        ("HTTP://localhost:20002/graphql?x=1", "ws://localhost:20002/graphql/realtime?x=1"),
    ])
    func endpointIsDerivedAsAmplifyDoes(api: String, expected: String) throws {
        #expect(try RealtimeEndpoint.url(forAPI: api).description == expected)
    }

    @Test func anEndpointThatIsNotHTTPIsRefused() {
        #expect(throws: WebSocketError.self) { try RealtimeEndpoint.url(forAPI: "ftp://example.com/graphql") }
    }

    // MARK: Auth header

    static let api = try! EndpointURL(parsing: "https://abcdefghijklmnopqrstuvwxyz.appsync-api.eu-west-1.amazonaws.com/graphql")
    static let time = Timestamp(secondsSince1970: 1_710_495_000)  // 2024-03-15T09:30:00Z
    static let host = "abcdefghijklmnopqrstuvwxyz.appsync-api.eu-west-1.amazonaws.com"

    @Test func apiKeyHeaderNamesTheAPIHostAndTravelsAsBase64URLSubprotocol() throws {
        let auth = RealtimeAuthorization(apiURL: Self.api, mode: .apiKey("da2-12345678901234567890123456"))
        let header = auth.connectHeader(at: Self.time)
        #expect(header == ["host": .string(Self.host), "x-api-key": "da2-12345678901234567890123456"])
        let subprotocol = RealtimeAuthorization.subprotocol(header)
        #expect(subprotocol.hasPrefix("header-"))
        let encoded = String(subprotocol.dropFirst("header-".count))
        #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
        let decoded = try #require(Base64.decode(encoded, alphabet: .url, padded: false))
        #expect(try JSONValue.parse(decoded) == .object(header))
        // The start message carries the same object.
        #expect(auth.startHeader(data: "{}", at: Self.time) == header)
    }

    @Test func tokenHeaderIsTheRawToken() {
        let auth = RealtimeAuthorization(apiURL: try! EndpointURL(parsing: "http://127.0.0.1:4000/graphql"), mode: .token("eyJraWQ.jwt"))
        #expect(auth.connectHeader(at: Self.time) == ["Authorization": "eyJraWQ.jwt", "host": "127.0.0.1:4000"])
    }

    static let signer = SigV4Signer(
        credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "eu-west-1")

    /// Expected signatures from appsync_local.sigv4 (canonical_request/string_to_sign/signature) over
    /// content-type, host and x-amz-date.
    @Test func iamConnectHeaderIsSignedOverConnectWithAnEmptyObject() {
        let header = RealtimeAuthorization(apiURL: Self.api, mode: .iam(Self.signer)).connectHeader(at: Self.time)
        #expect(header["accept"] == "application/json, text/javascript")
        #expect(header["content-encoding"] == "amz-1.0")
        #expect(header["content-type"] == "application/json; charset=UTF-8")
        #expect(header["host"] == .string(Self.host))
        #expect(header["X-Amz-Date"] == "20240315T093000Z")
        #expect(header["Authorization"] == .string(
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240315/eu-west-1/appsync/aws4_request, "
                + "SignedHeaders=content-type;host;x-amz-date, "
                + "Signature=5dc1996490030448e6dc023c12fdaf005ff56e620c8807411c02293874c48049"))
    }

    @Test func iamStartHeaderIsSignedOverTheDataString() {
        let data = #"{"query":"subscription OnCreatePost { onCreatePost { id } }","variables":{}}"#
        let header = RealtimeAuthorization(apiURL: Self.api, mode: .iam(Self.signer)).startHeader(data: data, at: Self.time)
        #expect(header["Authorization"]?.stringValue?.hasSuffix(
            "Signature=4495daa6a5c80451d4f06169ed66a50d4608b88d957f753fdae105c26d826321") == true)
    }

    @Test func temporaryCredentialsSendTheirSessionToken() {
        var signer = Self.signer
        signer.credentials = AWSCredentials(accessKeyID: "ASIAEXAMPLE", secretAccessKey: "secret", sessionToken: "token-1")
        let auth = RealtimeAuthorization(apiURL: Self.api, mode: .iam(signer))
        #expect(auth.connectHeader(at: Self.time)["X-Amz-Security-Token"] == "token-1")
        #expect(Set(auth.secrets) == ["secret", "token-1"])
    }

    // MARK: Messages

    @Test func connectionAckKeepsTheTimeoutOrDefaultsIt() throws {
        #expect(try RealtimeMessage.parse(#"{"type":"connection_ack","payload":{"connectionTimeoutMs":300000}}"#)
            == .connectionAck(connectionTimeoutMs: 300_000))
        #expect(try RealtimeMessage.parse(#"{"type":"connection_ack","payload":{"connectionTimeoutMs":1500}}"#)
            == .connectionAck(connectionTimeoutMs: 1500))
        #expect(try RealtimeMessage.parse(#"{"type":"connection_ack"}"#) == .connectionAck(connectionTimeoutMs: 300_000))
    }

    @Test func errorsComeAsAnArrayOrASingleObjectWithOrWithoutAnID() throws {
        let unauthorized = RealtimeError(errorType: "UnauthorizedException", message: "You are not authorized to make this call.", errorCode: 401)
        #expect(try RealtimeMessage.parse(
            #"{"type":"connection_error","payload":{"errors":[{"errorType":"UnauthorizedException","message":"You are not authorized to make this call.","errorCode":401}]}}"#)
            == .connectionError([unauthorized]))
        #expect(unauthorized.description == "UnauthorizedException: You are not authorized to make this call. (401)")
        // aws-appsync-realtime-client-ios PR #67: a single object, no id.
        #expect(try RealtimeMessage.parse(
            #"{"type":"error","payload":{"errors":{"errorType":"LimitExceededError","message":"Rate limit exceeded"}}}"#)
            == .error(id: nil, [RealtimeError(errorType: "LimitExceededError", message: "Rate limit exceeded", errorCode: nil)]))
        #expect(try RealtimeMessage.parse(
            #"{"type":"error","id":"s1","payload":{"errors":[{"errorType":"MaxSubscriptionsReachedError","message":"Max"}]}}"#)
            == .error(id: "s1", [RealtimeError(errorType: "MaxSubscriptionsReachedError", message: "Max", errorCode: nil)]))
        if case .error(nil, let errors) = try RealtimeMessage.parse(#"{"type":"error"}"#) {
            #expect(errors.count == 1)
        } else {
            Issue.record("an error without payload is still an error")
        }
    }

    @Test func dataKeepaliveAckAndComplete() throws {
        #expect(try RealtimeMessage.parse(#"{"type":"ka"}"#) == .keepAlive)
        #expect(try RealtimeMessage.parse(#"{"type":"start_ack","id":"s1"}"#) == .startAck(id: "s1"))
        #expect(try RealtimeMessage.parse(#"{"type":"complete","id":"s1"}"#) == .complete(id: "s1"))
        #expect(try RealtimeMessage.parse(#"{"type":"something_new"}"#) == .other(type: "something_new"))
        guard case .data("s1", let response) = try RealtimeMessage.parse(
            #"{"type":"data","id":"s1","payload":{"data":{"onCreatePost":{"id":"p1"}},"errors":[{"message":"x"}]}}"#)
        else {
            Issue.record("expected data")
            return
        }
        #expect(response.data == ["onCreatePost": ["id": "p1"]])
        #expect(response.errors.map(\.message) == ["x"])
    }

    @Test func brokenMessagesAreProtocolErrors() {
        #expect(throws: RealtimeProtocolError.self) { try RealtimeMessage.parse("not json") }
        #expect(throws: RealtimeProtocolError.self) { try RealtimeMessage.parse(#"{"id":"s1"}"#) }
        #expect(throws: RealtimeProtocolError.self) { try RealtimeMessage.parse(#"{"type":"data","payload":{"data":{}}}"#) }
    }

    // MARK: Errors and backoff

    @Test func resultKindsFollowTheIssue() {
        #expect(SubscriptionError.refused([]).kind == .httpError)
        #expect(SubscriptionError.failed(name: "onCreatePost", []).kind == .graphQLErrors)
        // A subscription refused as unauthorized (even after a renewed token) is an auth failure, as a refused connection.
        let expired = RealtimeError(errorType: "UnauthorizedException", message: "Token has expired.", errorCode: nil)
        let denied = RealtimeError(errorType: "Unauthorized", message: "Not Authorized to access onCreatePost", errorCode: nil)
        #expect(SubscriptionError.failed(name: "onCreatePost", [expired]).kind == .httpError)
        #expect(SubscriptionError.failed(name: "onCreatePost", [expired]).isUnauthorized)
        #expect(SubscriptionError.failed(name: "onCreatePost", [denied]).kind == .graphQLErrors)
        #expect(!SubscriptionError.failed(name: "onCreatePost", [denied]).isUnauthorized)
        #expect(SubscriptionError.connection(.connectionLost).kind == .network)
        #expect(SubscriptionError.connection(.upgradeRefused(status: 401, reason: "", body: "")).kind == .httpError)
        #expect(SubscriptionError.connection(.cancelled).kind == .cancelled)
        #expect(SubscriptionError.noKeepAlive(milliseconds: 1000).kind == .network)
        #expect(SubscriptionError.noKeepAlive(milliseconds: 1000).isRetryable)
        #expect(!SubscriptionError.refused([]).isRetryable)
    }

    @Test func backoffGrowsWithJitterUpToTheCeiling() throws {
        let settings = RealtimeSettings(
            url: try WebSocketURL("ws://127.0.0.1:1/graphql/realtime"),
            authorization: RealtimeAuthorization(apiURL: Self.api, mode: .none), timeout: 1)
        let subscriber = RealtimeSubscriber(settings: settings)
        for _ in 0..<50 {
            #expect((0.25...0.5).contains(subscriber.backoff(attempt: 1)))
            #expect((0.5...1.0).contains(subscriber.backoff(attempt: 2)))
            #expect((2.5...5.0).contains(subscriber.backoff(attempt: 9)))
        }
    }

    // MARK: Documents

    @Test func subscriptionFilterRefusesAttributeExistsAndListsWhatItSupports() throws {
        let builder = RequestBuilder(schema: try TestSchemas.load(TestPaths.example("blog.json")))
        #expect(throws: RequestBuildError.self) { try builder.subscription("Post", event: .onCreate, filter: FilterInput(where: ["title?"])) }
        do {
            _ = try builder.subscription("Post", event: .onCreate, filter: FilterInput(where: ["title?"]))
        } catch {
            #expect(error.description.contains("^= *= !*="))
        }
    }

    @Test func includeAddsAssociationsToTheSubscriptionSelection() throws {
        let builder = RequestBuilder(schema: try TestSchemas.load(TestPaths.example("blog.json")))
        let plain = try builder.subscription("Post", event: .onCreate)
        let included = try builder.subscription("Post", event: .onCreate, include: ["comments"])
        #expect(!plain.query.contains("comments"))
        #expect(included.query.contains("comments {"))
        #expect(included.decodePath == ["onCreatePost"])
    }
}
