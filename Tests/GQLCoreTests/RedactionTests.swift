import Foundation
import Testing
@testable import GQLCore

@Suite struct RedactionTests {
    @Test(arguments: [
        ("x-api-key", true), ("X-Api-Key", true), ("Authorization", true), ("Proxy-Authorization", true),
        ("X-Amz-Security-Token", true), ("my-Secret-header", true), ("X-Session-KEY", true), ("Cookie", true),
        ("Content-Type", false), ("Accept", false), ("x-trace-id", false), ("User-Agent", false),
    ])
    func sensitiveHeaderNames(name: String, sensitive: Bool) {
        #expect(HeaderRedaction.isSensitive(name) == sensitive)
    }

    @Test func longSecretsKeepAShortPrefixShortOnesNothing() {
        #expect(HeaderRedaction.redactValue("da2-abcdefghijklmnopqrstuvwxyz") == "da2-…████")
        #expect(HeaderRedaction.redactValue("eyJhbGciOiJIUzI1NiJ9.payload.sig") == "eyJh…████")
        #expect(HeaderRedaction.redactValue("12345678901") == "████")
        #expect(HeaderRedaction.redactValue("123456789012") == "1234…████")
        #expect(HeaderRedaction.redactValue("abc") == "████")
        #expect(HeaderRedaction.redactValue("") == "████")
    }

    @Test func headersAreRedactedByName() {
        let headers = [
            HTTPHeader(name: "Content-Type", value: "application/json"),
            HTTPHeader(name: "x-api-key", value: "da2-abcdefghijklmnopqrstuvwxyz"),
            HTTPHeader(name: "Authorization", value: "secret"),
        ]
        #expect(HeaderRedaction.redact(headers).map(\.value) == ["application/json", "da2-…████", "████"])
    }

    @Test func redactorScrubsEveryOccurrence() {
        let redactor = Redactor(secrets: ["da2-abcdefghijklmnopqrstuvwxyz", "tok"])
        let text = "key da2-abcdefghijklmnopqrstuvwxyz rejected; header was x-api-key: da2-abcdefghijklmnopqrstuvwxyz, tok=tok"
        let scrubbed = redactor.scrub(text)
        #expect(scrubbed == "key da2-…████ rejected; header was x-api-key: da2-…████, ████=████")
        #expect(!scrubbed.contains("abcdefghijklmnopqrstuvwxyz"))
    }

    @Test func longerSecretsAreReplacedWholeBeforeTheirPrefixes() {
        let redactor = Redactor(secrets: ["abcdefgh", "abcdefgh-ijklmnop-qrstuvwx"])
        let scrubbed = redactor.scrub("got abcdefgh-ijklmnop-qrstuvwx")
        #expect(!scrubbed.contains("ijklmnop"))
        #expect(!scrubbed.contains("qrstuvwx"))
    }

    @Test func emptyRedactorChangesNothing() {
        #expect(Redactor.none.scrub("da2-abc") == "da2-abc")
        #expect(Redactor(secrets: ["", ""]).secrets.isEmpty)
    }

    @Test func endpointKnowsItsSecrets() throws {
        let endpoint = try Endpoint(url: "https://h/graphql", apiKey: "da2-key-1234567890", authorization: "eyJraWQiOi.jwt.sig",
                                    headerLines: ["X-Amz-Security-Token: sessiontoken123", "x-trace-id: 42"])
        // A custom header's value is a secret too unless the header is known to be harmless (issue 22: `-H 'X-Auth: …'`).
        #expect(Set(endpoint.redactor.secrets) == ["da2-key-1234567890", "eyJraWQiOi.jwt.sig", "sessiontoken123", "42"])
        let harmless = try Endpoint(url: "https://h/graphql", headerLines: ["User-Agent: me/1.0", "Accept-Language: de"])
        #expect(harmless.redactor.secrets.isEmpty)
    }

    @Test func anAccessKeyIDShowsItsFirstAndLastFour() {
        #expect(HeaderRedaction.keyID("AKIAIOSFODNN7EXAMPLE") == "AKIA…MPLE")
        #expect(HeaderRedaction.keyID("AKIA1234") == HeaderRedaction.mask)
    }

    @Test func theRealtimeSubprotocolGQLCBuiltIsAProcessSecret() {
        let subprotocol = RealtimeAuthorization.subprotocol(["host": "h", "x-api-key": "da2-subprotocolkey0123"])
        let encoded = String(subprotocol.dropFirst("header-".count))
        #expect(Redactor.none.scrub("echo: \(subprotocol)!") == "echo: header-\(encoded.prefix(4))…████!")
    }

    @Test func traceHeadersAreRedacted() throws {
        let trace = TraceRecorder()
        _ = try Fixtures.client(FakeTransport([Fixtures.ok()]), trace: trace).execute(Fixtures.query)
        let lines = trace.events.flatMap(\.lines)
        #expect(lines.contains("> x-api-key: da2-…████"))
        #expect(!lines.joined(separator: "\n").contains(Fixtures.apiKey))
        #expect(lines.contains("> POST https://example.appsync-api.eu-west-1.amazonaws.com/graphql"))
        #expect(lines.contains("*     getPost(id: $id) {"))
        #expect(lines.contains(#"* variables: {"id":"p1"}"#))
        #expect(lines.contains { $0.hasPrefix("< HTTP 200 (") })
    }

    @Test func responseHeadersAreRedactedInTraces() throws {
        let trace = TraceRecorder()
        let reply = Fixtures.status(200, #"{"data":{}}"#, headers: [HTTPHeader(name: "Set-Cookie", value: "session=abcdefghijklmnop")])
        _ = try Fixtures.client(FakeTransport([reply]), trace: trace).execute(Fixtures.query)
        #expect(trace.events.flatMap(\.lines).contains("< Set-Cookie: sess…████"))
    }

    @Test func serverEchoOfTheKeyIsScrubbedFromErrors() throws {
        let body = #"{"errors":[{"errorType":"UnauthorizedException","message":"API key \#(Fixtures.apiKey) is invalid"}]}"#
        let client = try Fixtures.client(FakeTransport([Fixtures.status(401, body)]))
        let error = try #require(executionError { () throws(ExecutionError) in try client.execute(Fixtures.query) })
        #expect(!error.description.contains(Fixtures.apiKey))
        #expect(error.description.contains("API key da2-…████ is invalid"))

        let html = try Fixtures.client(FakeTransport([Fixtures.status(200, "<p>bad \(Fixtures.apiKey)</p>")]))
        let htmlError = try #require(executionError { () throws(ExecutionError) in try html.execute(Fixtures.query) })
        #expect(!htmlError.description.contains(Fixtures.apiKey))
    }

    /// A body excerpt is cut at 100 characters; a secret that straddles the cut used to escape the scrub,
    /// showing all but its last characters (found by a server echoing every request header).
    @Test func aSecretCutShortByTheExcerptIsScrubbed() throws {
        let body = "bad headers " + String(repeating: "x", count: 70) + " " + Fixtures.apiKey
        let client = try Fixtures.client(FakeTransport([Fixtures.status(200, body)]))
        let error = try #require(executionError { () throws(ExecutionError) in try client.execute(Fixtures.query) })
        #expect(error.description.hasSuffix(" da2-…████"), "\(error.description)")
        #expect(!error.description.contains(Fixtures.apiKey.dropFirst(4).prefix(4)))
        #expect(Redactor(secrets: ["da2-abcdefghijkl"]).scrub("was da2-abcdefg… (9 omitted)") == "was da2-…████ (9 omitted)")
        #expect(Redactor(secrets: ["da2-abcdefghijkl"]).scrub("da2-… and da2-a…") == "da2-… and da2-…████")
    }

    /// A line cut in its middle (a long server message in a trace) shows the end of a secret after the `…`.
    @Test func theEndOfASecretAfterACutIsScrubbed() {
        let redactor = Redactor(secrets: ["da2-abcdefghijklmnop"])
        #expect(redactor.scrub("given: x-api-key da2-abc…ghijklmnop host") == "given: x-api-key da2-…████ host")
        #expect(redactor.scrub("(12 omitted) …jklmnop)") == "(12 omitted) …████)")
        #expect(redactor.scrub("…mnop and …lmnopq") == "…mnop and …lmnopq")  // too short to tell, or another word
        // Another secret with the same start (the process's other API key) does not take the `…` the end needs.
        let two = Redactor(secrets: ["da2-abcdefghijklmnopqrstuvwxyz", "da2-abcdefghijklmnop"])
        #expect(two.scrub("given: x-api-key da2-abc…ghijklmnop host") == "given: x-api-key da2-…████ host")
    }

    /// Tokens learnt while running (a user-pool token renewed mid-command) are scrubbed by redactors made before.
    @Test func processSecretsAreScrubbedByEveryRedactor() {
        let early = Redactor(secrets: ["da2-abcdefghijklmnop"])
        let renewed = "eyJrenewed.Zq8Wv3Tn5Lp2Xr.sig7Hj4"
        #expect(early.scrub("token \(renewed)") == "token \(renewed)")
        ProcessSecrets.register([renewed, ""])
        #expect(early.scrub("token \(renewed) and da2-abcdefghijklmnop") == "token eyJr…████ and da2-…████")
        #expect(Redactor.none.scrub("\(renewed.prefix(12))… cut") == "eyJr…████ cut")
    }

    @Test func networkErrorDetailsAreScrubbed() throws {
        let trace = TraceRecorder()
        let client = try Fixtures.client(FakeTransport([.failure(.network("proxy refused header \(Fixtures.apiKey)"))]), retries: 1, trace: trace)
        let error = try #require(executionError { () throws(ExecutionError) in try client.execute(Fixtures.query) })
        #expect(!error.description.contains(Fixtures.apiKey))
        #expect(!trace.events.flatMap(\.lines).joined().contains(Fixtures.apiKey))
    }

    @Test func malformedHeaderErrorsDoNotEchoSecrets() {
        let withoutColon = Result { () throws(EndpointError) in try HTTPHeader.parse("da2-abcdefghijklmnopqrstuvwxyz") }
        guard case .failure(let error) = withoutColon else { Issue.record("expected an error"); return }
        #expect(!error.description.contains("abcdefghijklmnop"))
        #expect(error.description.contains("expected 'Name: value'"))

        let badName = Result { () throws(EndpointError) in try HTTPHeader.parse("x api key: da2-abcdefghijklmnopqrstuvwxyz") }
        guard case .failure(let nameError) = badName else { Issue.record("expected an error"); return }
        #expect(!nameError.description.contains("abcdefghijklmnop"))
    }
}
