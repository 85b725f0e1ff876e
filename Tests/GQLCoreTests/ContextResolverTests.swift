import Foundation
import Testing
@testable import GQLCore

/// Prompts that must not be asked: a test that reaches one fails.
struct NoPrompts: ContextPrompts {
    func mfaCode(serial: String) -> String? {
        Issue.record("asked for an MFA code for \(serial)")
        return nil
    }

    func clientSecret(_ value: String) throws(ContextError) -> String { value }
}

/// The core's resolution of settings into endpoint, auth and client, without the executable.
@Suite struct ContextResolverTests {
    static let url = "https://example.appsync-api.eu-west-1.amazonaws.com/graphql"

    /// A resolver of `settings` (schema named on the command line unless given) over `transport`, noting into `notes`.
    func resolver(
        _ change: (inout ContextSettings) -> Void, transport: FakeTransport = FakeTransport([Fixtures.ok()]),
        notes: EventRecorder<ContextNote>? = nil
    ) -> ContextResolver {
        var settings = ContextSettings(schema: Setting(value: "/nonexistent/amplify_outputs.json", origin: .commandLine))
        // No shared credentials files: the chain reads only the variables given.
        settings.awsEnvironment = ["AWS_CONFIG_FILE": "/nonexistent/config", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials"]
        change(&settings)
        return ContextResolver(
            settings: settings, prompts: NoPrompts(), transport: transport, clock: RecordingClock().clock, notes: notes?.sink)
    }

    /// A schema file at `path` with `service`, and one model `Post` with `rules`.
    func file(_ service: ServiceConfig, rules: [AuthRule] = []) -> (SchemaFile, Model) {
        var post = Model(name: "Post", pluralName: "Posts", fields: [ModelField(name: "id", type: .scalar("ID"), isRequired: true)],
                         primaryKey: PrimaryKey(partitionKey: "id"))
        post.authRules = rules
        let schema = ModelSchema(models: ["Post": post])
        return (SchemaFile(path: "amplify_outputs.json", format: .amplifyOutputs, schema: schema, service: service), post)
    }

    func contextError<T>(_ body: () throws(ContextError) -> T) -> ContextError? { thrownError(body) }

    /// A key and a token never print, in the settings (however they are described) or on their own.
    @Test func settingsPrintNoSecret() {
        var settings = ContextSettings(schema: Setting(value: "blog.json", origin: .commandLine))
        settings.apiKey = Setting(value: Secret(value: "da2-abcdef"), origin: .commandLine)
        settings.authToken = Setting(value: Secret(value: "eyJtoken"), origin: .environment("GQLC_AUTH_TOKEN"))
        for text in ["\(settings)", String(reflecting: settings)] {
            #expect(text.contains("<redacted>") && !text.contains("da2-abcdef") && !text.contains("eyJtoken"), "\(text)")
        }
        let secret = Secret(value: "da2-abcdef")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
    }

    @Test func aMissingEndpointIsATypedErrorNamingWhereItLooked() {
        let named = resolver { _ in }
        #expect(contextError { () throws(ContextError) in try named.endpoint(file: nil) }
            == .noEndpoint(.schemaNotFound("/nonexistent/amplify_outputs.json")))
        let (withoutEndpoint, _) = file(ServiceConfig(apiKey: Fixtures.apiKey))
        #expect(contextError { () throws(ContextError) in try named.endpoint(file: withoutEndpoint) }
            == .noEndpoint(.schemaFile("amplify_outputs.json")))
    }

    @Test func anAPIKeySettingReplacesTheFilesAndTheClientSendsIt() throws {
        let transport = FakeTransport([Fixtures.ok()])
        let resolver = resolver({ $0.apiKey = Setting(value: Secret(value: "da2-fromsettings"), origin: .environment("GQLC_API_KEY")) },
                                transport: transport)
        let (file, _) = file(ServiceConfig(endpoint: Self.url, apiKey: Fixtures.apiKey))
        let client = try resolver.client(file: file, model: nil)
        _ = try client.execute(Fixtures.query)
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.headers.first { $0.name == "x-api-key" }?.value == "da2-fromsettings")
    }

    @Test func aModelsAuthRulesChooseTheModeInAmplifysOrder() throws {
        var service = ServiceConfig(endpoint: Self.url, apiKey: Fixtures.apiKey, region: "eu-west-1", defaultAuthorizationType: "AWS_IAM")
        service.additionalAuthorizationTypes = ["API_KEY"]
        let (file, post) = file(service, rules: [AuthRule(allow: "public", provider: "apiKey")])
        let notes = EventRecorder<ContextNote>()
        let resolver = resolver({ _ in }, notes: notes)
        #expect(try resolver.chosenAuthMode(file: file, model: post) == .apiKey)
        #expect(notes.events == [.authMode(.apiKey, .modelRules(model: "Post", configured: [.iam, .apiKey]))])

        let (userPoolOnly, owned) = self.file(ServiceConfig(endpoint: Self.url, defaultAuthorizationType: "AWS_IAM"),
                                              rules: [AuthRule(allow: "owner")])
        #expect(contextError { () throws(ContextError) in try resolver.chosenAuthMode(file: userPoolOnly, model: owned) }
            == .authRulesUnmet(model: "Post", rules: ["owner (userPools)"], file: "amplify_outputs.json", configured: [.iam]))
    }

    @Test func anAuthModeSettingClashesOnlyWithWhatItDoesNotUseAtItsLevel() throws {
        let (file, post) = file(ServiceConfig(endpoint: Self.url, apiKey: Fixtures.apiKey))
        let clash = resolver {
            $0.authMode = Setting(value: .userPool, origin: .commandLine)
            $0.apiKey = Setting(value: Secret(value: "da2-key"), origin: .commandLine)
        }
        #expect(contextError { () throws(ContextError) in try clash.chosenAuthMode(file: file, model: post) }
            == .authModeUnused(.userPool, .apiKey))
        // From the environment, the mode gives way to a key on the command line.
        let givesWay = resolver {
            $0.authMode = Setting(value: .userPool, origin: .environment("GQLC_AUTH_MODE"))
            $0.apiKey = Setting(value: Secret(value: "da2-key"), origin: .commandLine)
        }
        let chosen = try givesWay.chosenAuthMode(file: file, model: post)
        #expect(chosen == nil)
    }

    @Test func iamAndAKeyAtTheSameLevelClashAndAProfileWithoutIAMIsRefused() {
        let same = resolver {
            $0.iam = Setting(value: true, origin: .commandLine)
            $0.apiKey = Setting(value: Secret(value: "da2-key"), origin: .commandLine)
        }
        #expect(contextError { () throws(ContextError) in try same.usesIAM(file: nil) }
            == .iamWithOtherAuth(iam: .commandLine, other: .apiKey, origin: .commandLine))
        let keyWins = resolver {
            $0.iam = Setting(value: true, origin: .environment("GQLC_IAM"))
            $0.authToken = Setting(value: Secret(value: "token"), origin: .commandLine)
        }
        #expect(contextError { () throws(ContextError) in try keyWins.usesIAM(file: nil) } == nil)
        let regionOnly = resolver { $0.region = "eu-west-1"; $0.apiKey = Setting(value: Secret(value: "da2-key"), origin: .commandLine) }
        #expect(contextError { () throws(ContextError) in try regionOnly.usesIAM(file: nil) } == .iamOnly(.region))
    }

    @Test func credentialsAreResolvedOnceForEveryClientAndCopy() throws {
        let notes = EventRecorder<ContextNote>()
        let resolver = resolver({
            $0.endpoint = Setting(value: EndpointURL(string: Self.url)!, origin: .commandLine)
            $0.iam = Setting(value: true, origin: .commandLine)
            $0.awsEnvironment["AWS_ACCESS_KEY_ID"] = "AKIDEXAMPLE"
            $0.awsEnvironment["AWS_SECRET_ACCESS_KEY"] = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
        }, notes: notes)
        // A listing's client, an orphan check's, and the Events endpoint's (a copy of the resolver).
        let first = try resolver.client(file: nil, model: nil)
        let second = try resolver.client(file: nil, model: nil)
        let copy = try resolver.forEndpoint(EndpointURL(string: "https://example.appsync-api.eu-west-1.amazonaws.com/event")!).client(file: nil, model: nil)
        let resolutions = notes.events.filter { if case .credentials = $0 { true } else { false } }
        #expect(resolutions.count == 1)
        #expect([first, second, copy].allSatisfy { $0.endpoint.signer?.credentials.accessKeyID == "AKIDEXAMPLE" })
        #expect(copy.endpoint.url.absoluteString.hasSuffix("/event"))
    }
}
