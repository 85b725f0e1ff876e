import Foundation
import Testing
@testable import GQLCore

/// IAM auth through the client: a fresh signature per attempt, secrets kept out of traces and messages.
@Suite struct IAMClientTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    static let token = "IQoJb3JpZ2luX2VjEXAMPLETOKENvalue0123456789"

    /// A clock that moves one minute each time it is read.
    final class TickingClock: @unchecked Sendable {
        private let lock = NSLock()
        private var ticks = 0

        var clock: RetryClock {
            RetryClock(sleep: { _ in }, random: { 0 }, now: {
                self.lock.lock()
                defer { self.lock.unlock() }
                self.ticks += 1
                return Timestamp(secondsSince1970: 1_710_495_000 + Double(self.ticks * 60))
            })
        }
    }

    static func endpoint() throws -> Endpoint {
        let credentials = AWSCredentials(accessKeyID: "ASIAEXAMPLE", secretAccessKey: secret, sessionToken: token)
        return try Endpoint(
            url: "https://example.appsync-api.eu-west-1.amazonaws.com/graphql",
            signer: SigV4Signer(credentials: credentials, region: "eu-west-1"))
    }

    @Test func everyAttemptIsSignedAfresh() throws {
        let transport = FakeTransport([Fixtures.status(503), Fixtures.status(429), Fixtures.ok()])
        let client = GraphQLClient(endpoint: try Self.endpoint(), transport: transport, clock: TickingClock().clock)
        _ = try client.execute(Fixtures.query)
        let dates = transport.requests.map { $0.headers.value(for: "X-Amz-Date") }
        #expect(dates == ["20240315T093100Z", "20240315T093200Z", "20240315T093300Z"])
        let signatures = Set(transport.requests.compactMap { $0.headers.value(for: "Authorization") })
        #expect(signatures.count == 3)
        for request in transport.requests {
            // Each attempt verifies on its own: recomputing it from what was sent gives what was sent.
            let date = Timestamp(secondsSince1970: 1_710_495_000 + Double(transport.requests.firstIndex(of: request)! + 1) * 60)
            #expect(try Self.endpoint().signer!.sign(request, at: date) == request)
            #expect(request.headers.value(for: "X-Amz-Security-Token") == Self.token)
        }
    }

    @Test func tracesAndErrorsNeverShowTheSecretOrToken() throws {
        // AppSync's InvalidSignatureException echoes the canonical request, session token included.
        let echo = #"{"errors":[{"errorType":"InvalidSignatureException","message":"expected x-amz-security-token:\#(Self.token) key \#(Self.secret)"}]}"#
        let transport = FakeTransport([Fixtures.status(403, echo)])
        let trace = TraceRecorder()
        let client = GraphQLClient(endpoint: try Self.endpoint(), transport: transport, clock: TickingClock().clock, trace: trace.sink)
        let error = try #require(executionError { () throws(ExecutionError) in try client.execute(Fixtures.query) })
        let message = error.description
        #expect(message.contains("InvalidSignatureException"))
        #expect(message.contains("check the AWS credentials"))
        let traced = trace.events.flatMap(\.lines).joined(separator: "\n")
        #expect(traced.contains("X-Amz-Security-Token: IQoJ…████"))
        #expect(traced.contains("Authorization: AWS4…████"))
        for text in [message, traced] {
            #expect(!text.contains(Self.secret) && !text.contains(Self.token), "\(text)")
        }
    }

    @Test func theRedactorKnowsTheSignersSecrets() throws {
        let redactor = try Self.endpoint().redactor
        #expect(redactor.secrets.contains(Self.secret))
        #expect(redactor.secrets.contains(Self.token))
    }
}

/// A class, so that `deinit` removes the files each test wrote (Swift Testing makes one instance per test).
@Suite final class AWSCredentialsLookupTests {
    /// The files and folders this test wrote under the temporary directory.
    private var written: [String] = []

    deinit {
        for path in written { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The chain's credentials, with the instance metadata service off so nothing goes on the network.
    struct Lookup {
        var environment: [String: String]
        var profile: String?
        init(environment: [String: String], profile: String? = nil) {
            self.environment = environment
            self.profile = profile
        }
        func resolve() throws(AWSAuthError) -> AWSCredentials {
            var environment = environment
            environment["AWS_EC2_METADATA_DISABLED"] = "true"
            environment["AWS_CONFIG_FILE"] = environment["AWS_CONFIG_FILE"] ?? "/nonexistent/config"
            return try AWSCredentialChain(
                environment: environment, explicitProfile: profile, services: CredentialServices(transport: CurlTransport.shared)
            ).resolve().credentials
        }
    }

    func tempFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-credentials-\(UUID().uuidString)").path
        written.append(path)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let file = """
        # a comment
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = defaultSecret/+=

        ; another comment
        [admin]
        aws_access_key_id=ASIAADMIN
        aws_secret_access_key=adminSecret
        aws_session_token = adminToken==
        region = eu-west-1
        [broken]
        aws_access_key_id = AKIABROKEN
        """

    @Test func environmentKeysComeFirst() throws {
        let lookup = Lookup(environment: [
            "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "envSecret", "AWS_SESSION_TOKEN": "envToken",
            "AWS_SHARED_CREDENTIALS_FILE": try tempFile(Self.file),
        ])
        #expect(try lookup.resolve() == AWSCredentials(accessKeyID: "AKIAENV", secretAccessKey: "envSecret", sessionToken: "envToken"))
    }

    @Test func anExplicitProfileWinsOverTheEnvironment() throws {
        let lookup = Lookup(environment: [
            "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "envSecret",
            "AWS_SHARED_CREDENTIALS_FILE": try tempFile(Self.file),
        ], profile: "admin")
        #expect(try lookup.resolve() == AWSCredentials(accessKeyID: "ASIAADMIN", secretAccessKey: "adminSecret", sessionToken: "adminToken=="))
    }

    @Test func theFileDefaultsToProfileDefaultOrAWSProfile() throws {
        let path = try tempFile(Self.file)
        #expect(try Lookup(environment: ["AWS_SHARED_CREDENTIALS_FILE": path]).resolve()
            == AWSCredentials(accessKeyID: "AKIADEFAULT", secretAccessKey: "defaultSecret/+="))
        #expect(try Lookup(environment: ["AWS_SHARED_CREDENTIALS_FILE": path, "AWS_PROFILE": "admin"]).resolve().accessKeyID
            == "ASIAADMIN")
    }

    @Test func theHomeDirectoryFileIsUsedWhenNoPathIsSet() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-home-\(UUID().uuidString)")
        written.append(home.path)
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        try Self.file.write(to: home.appendingPathComponent(".aws/credentials"), atomically: true, encoding: .utf8)
        #expect(try Lookup(environment: ["HOME": home.path]).resolve().accessKeyID == "AKIADEFAULT")
    }

    @Test func problemsNameThePlaceAndNeverTheSecret() throws {
        let path = try tempFile(Self.file)
        func failure(_ environment: [String: String], profile: String? = nil) -> String {
            do {
                _ = try Lookup(environment: environment, profile: profile).resolve()
                return "no error"
            } catch {
                return error.description
            }
        }
        #expect(failure(["AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/creds"]) ==
            "no AWS credentials for IAM auth: looked in $AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY (not set), "
            + "$AWS_WEB_IDENTITY_TOKEN_FILE (not set), profile 'default' in /nonexistent/config and /nonexistent/creds "
            + "(no such profile), the container endpoint ($AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI not set) "
            + "and the instance metadata service (disabled by $AWS_EC2_METADATA_DISABLED); set AWS_ACCESS_KEY_ID and "
            + "AWS_SECRET_ACCESS_KEY, or pass profile NAME with a shared credentials file")
        #expect(failure(["AWS_ACCESS_KEY_ID": "AKIA"]) ==
            "$AWS_ACCESS_KEY_ID is set but $AWS_SECRET_ACCESS_KEY is not; set both (and AWS_SESSION_TOKEN for temporary credentials)")
        #expect(failure(["AWS_SHARED_CREDENTIALS_FILE": path], profile: "nope") ==
            "no profile 'nope' in /nonexistent/config and \(path) (profiles there: 'default', 'admin', 'broken'); "
            + "check profile or $AWS_PROFILE")
        #expect(failure(["AWS_SHARED_CREDENTIALS_FILE": path], profile: "broken") ==
            "profile 'broken' in \(path) has no aws_secret_access_key")
    }

    @Test(arguments: [
        ("[default]\naws_secret_access_key wJalrXUtnFEMI\n", 2, "expected 'name = value', a '[profile]' header or a comment"),
        ("aws_access_key_id = A\n", 1, "a setting before the first '[profile]' header"),
        ("\n\n[default\n", 3, "a section header needs a closing ']'"),
        ("[ ]\n", 1, "the profile name between '[' and ']' is empty"),
        ("[p]\n = secretvalue\n", 2, "the setting name before '=' is empty"),
    ])
    func malformedFilesGiveFileAndLine(text: String, line: Int, reason: String) {
        #expect(throws: AWSAuthError.malformedCredentialsFile(path: "creds", line: line, reason: reason)) {
            try SharedCredentialsFile.parse(text, path: "creds")
        }
        let message = AWSAuthError.malformedCredentialsFile(path: "creds", line: line, reason: reason).description
        #expect(!message.contains("wJalr") && !message.contains("secretvalue"))
    }

    /// botocore's nested settings: a setting without a value, then indented lines (`[services NAME]` sections,
    /// `s3 =` in a profile) keep their parent's name instead of mixing with the profile's own settings.
    @Test func indentedLinesUnderAnEmptySettingAreNested() throws {
        let text = "[services local]\nsts =\n  endpoint_url = http://127.0.0.1:5000\nsso =\n\tendpoint_url = http://x\n"
            + "[profile p]\ns3 =\n  addressing_style = path\nregion = eu-west-1\n  endpoint_url = http://y\n"
        let file = try SharedCredentialsFile.parse(text, path: "config")
        #expect(file.profiles["services local"] == ["sts": "", "sts.endpoint_url": "http://127.0.0.1:5000", "sso": "", "sso.endpoint_url": "http://x"])
        // An indented line under a setting that has a value is an ordinary setting, as before.
        #expect(file.profiles["profile p"] == ["s3": "", "s3.addressing_style": "path", "region": "eu-west-1", "endpoint_url": "http://y"])
    }
}

@Suite struct AWSRegionTests {
    static let appSync = EndpointURL(string: "https://abc.appsync-api.ap-southeast-2.amazonaws.com/graphql")!
    static let local = EndpointURL(string: "http://127.0.0.1:20002/graphql")!

    @Test func precedenceIsFlagHostFileEnvironment() throws {
        let env = ["AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "eu-west-2"]
        #expect(try AWSRegion.resolve(flag: "us-west-2", environment: env, fileRegion: "eu-central-1", filePath: "f", url: Self.appSync) == "us-west-2")
        // The API's own host beats a shell-wide AWS_REGION set for other work.
        #expect(try AWSRegion.resolve(flag: nil, environment: env, fileRegion: "eu-central-1", filePath: "f", url: Self.appSync) == "ap-southeast-2")
        #expect(try AWSRegion.resolve(flag: nil, environment: env, fileRegion: "eu-central-1", filePath: "f", url: Self.local) == "eu-central-1")
        #expect(try AWSRegion.resolve(flag: nil, environment: env, fileRegion: nil, filePath: "f", url: Self.local) == "eu-west-1")
        #expect(try AWSRegion.resolve(flag: nil, environment: ["AWS_DEFAULT_REGION": "eu-west-2"], fileRegion: nil, filePath: nil, url: Self.local) == "eu-west-2")
        #expect(try AWSRegion.resolve(flag: nil, environment: ["AWS_REGION": ""], fileRegion: "", filePath: "f", url: Self.appSync) == "ap-southeast-2")
    }

    @Test func noRegionSaysWhereItLooked() {
        #expect(throws: AWSAuthError.missingRegion(looked: [
            "the endpoint host 127.0.0.1 (not an AppSync host)", "outputs.json (no region)",
            "$AWS_REGION", "$AWS_DEFAULT_REGION",
        ])) {
            try AWSRegion.resolve(flag: nil, environment: [:], fileRegion: nil, filePath: "outputs.json", url: Self.local)
        }
        #expect(throws: AWSAuthError.invalidRegion("eu west", source: nil)) {
            try AWSRegion.resolve(flag: "eu west", environment: [:], fileRegion: nil, filePath: nil, url: Self.local)
        }
    }

    @Test(arguments: [
        ("abc.appsync-api.eu-west-1.amazonaws.com", "eu-west-1"),
        ("ABC.APPSYNC-API.US-EAST-1.AMAZONAWS.COM", "us-east-1"),
        ("abc.appsync-api.cn-north-1.amazonaws.com.cn", "cn-north-1"),
        ("abc.appsync-realtime-api.eu-west-1.amazonaws.com", nil),
        ("api.example.com", nil), ("appsync-api.eu-west-1.amazonaws.com", nil),
    ] as [(String, String?)])
    func regionFromAppSyncHost(host: String, region: String?) {
        #expect(AWSRegion.fromAppSyncHost(host) == region)
    }
}

@Suite struct AuthHintTests {
    @Test(arguments: [401, 403])
    func theHintFollowsTheAuthMode(status: Int) {
        var error = HTTPStatusError(status: status, errorType: "UnauthorizedException")
        #expect(error.description.hasSuffix("check the API key or token (API key, auth token) and the API's auth mode"))
        error.authorization = .iam(source: nil)
        #expect(error.description.contains("check the AWS credentials (profile, AWS_ACCESS_KEY_ID)"))
        error.authorization = .iam(source: "profile 'dev' (credential_process)")
        #expect(error.description.hasSuffix(
            "check the AWS credentials (from profile 'dev' (credential_process)), the region (region) and the system clock, "
                + "and that the API allows IAM auth"))
        error.authorization = .userPool
        #expect(error.description.hasSuffix(
            "the user-pool sign-in was not accepted; sign in again, and check that the API allows user-pool auth"))
        #expect(!error.description.contains("API key"))
    }
}
