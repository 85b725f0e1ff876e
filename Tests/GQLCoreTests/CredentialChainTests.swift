import Foundation
import Testing
@testable import GQLCore

/// The STS answers of the AWS STS API reference (AssumeRole, "Examples"; "Common Errors"), read by our XML reader.
@Suite struct STSAnswerTests {
    static let assumeRoleExample = """
        <AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
        <AssumeRoleResult>
        <SourceIdentity>Alice</SourceIdentity>
          <AssumedRoleUser>
            <Arn>arn:aws:sts::123456789012:assumed-role/demo/TestAR</Arn>
            <AssumedRoleId>ARO123EXAMPLE123:TestAR</AssumedRoleId>
          </AssumedRoleUser>
          <Credentials>
            <AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId>
            <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY</SecretAccessKey>
            <SessionToken>
             AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQW
             LWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGd
            </SessionToken>
            <Expiration>2019-11-09T13:34:41Z</Expiration>
          </Credentials>
          <PackedPolicySize>6</PackedPolicySize>
        </AssumeRoleResult>
        <ResponseMetadata>
          <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
        </ResponseMetadata>
        </AssumeRoleResponse>
        """

    static func errorResponse(_ code: String, _ message: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
          <Error>
            <Type>Sender</Type>
            <Code>\(code)</Code>
            <Message>\(message)</Message>
          </Error>
          <RequestId>4fa2d6a3-0e3c-11e7-9a6c-example</RequestId>
        </ErrorResponse>
        """
    }

    static func services(_ status: Int, _ body: String, transport: FakeTransport? = nil) -> (CredentialServices, FakeTransport) {
        let fake = transport ?? FakeTransport([.success(HTTPResponse(status: status, text: body))])
        return (CredentialServices(transport: fake), fake)
    }

    static let endpoint = EndpointURL(string: "https://sts.eu-west-1.amazonaws.com")!

    @Test func theDocumentedAssumeRoleAnswerGivesItsCredentialsAndExpiration() throws {
        let (services, fake) = Self.services(200, Self.assumeRoleExample)
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDSOURCE", secretAccessKey: "s"), region: "eu-west-1", service: "sts")
        let (credentials, expiration) = try services.sts(
            action: "AssumeRole", parameters: [("RoleArn", "arn:aws:iam::123456789012:role/demo"), ("ExternalId", "a b&c")],
            endpoint: Self.endpoint, signer: signer, source: "STS AssumeRole")
        #expect(credentials.accessKeyID == "ASIAIOSFODNN7EXAMPLE")
        #expect(credentials.secretAccessKey == "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY")
        #expect(credentials.sessionToken?.hasPrefix("AQoDYXdzEPT//") == true)
        #expect(credentials.sessionToken?.hasSuffix("kMcGd") == true)
        #expect(expiration == Timestamp(year: 2019, month: 11, day: 9, hour: 13, minute: 34, second: 41))
        let request = try #require(fake.requests.first)
        #expect(String(decoding: request.body, as: UTF8.self)
            == "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fdemo&ExternalId=a%20b%26c")
        #expect(request.headers.value(for: "Authorization")?.contains("Credential=AKIDSOURCE/") == true)
        #expect(request.headers.value(for: "Authorization")?.contains("/eu-west-1/sts/aws4_request") == true)
    }

    @Test(arguments: [
        ("AccessDenied", "User: arn:aws:iam::123456789012:user/dev is not authorized to perform: sts:AssumeRole"),
        ("ExpiredToken", "The security token included in the request is expired"),
        ("InvalidIdentityToken", "Couldn't retrieve verification key from your identity provider"),
    ])
    func errorsBecomeOneLineWithCodeAndMessage(code: String, message: String) {
        let (services, _) = Self.services(403, Self.errorResponse(code, message.replacingOccurrences(of: "'", with: "&apos;")))
        #expect(throws: AWSAuthError.serviceRefused(source: "STS AssumeRole", code: code, message: message)) {
            _ = try services.sts(action: "AssumeRole", parameters: [], endpoint: Self.endpoint, signer: nil, source: "STS AssumeRole")
        }
        let error = AWSAuthError.serviceRefused(source: "STS AssumeRole", code: code, message: message)
        #expect(error.description == "STS AssumeRole failed: \(code): \(message)")
        #expect(error.isServiceRefusal)
    }

    @Test func aNonXMLAnswerIsQuotedShortly() {
        let (services, _) = Self.services(502, "<html>Bad gateway</html")
        #expect(throws: AWSAuthError.serviceRefused(source: "STS", code: nil, message: "HTTP 502 <html>Bad gateway</html")) {
            _ = try services.sts(action: "AssumeRole", parameters: [], endpoint: Self.endpoint, signer: nil, source: "STS")
        }
    }

    @Test func xmlEntitiesCommentsAndPrefixesAreRead() throws {
        let root = try #require(XMLElement.parse("<?xml version=\"1.0\"?><!-- c --><a:Root x=\"1\"><B>&lt;x&gt; &amp; &#65;&#x42; &quot;q&apos;</B><C/></a:Root>"))
        #expect(root.name == "Root")
        #expect(root.text(of: "B") == "<x> & AB \"q'")
        #expect(root.child("C") != nil)
        #expect(XMLElement.parse("<a><b></a>") == nil)
    }
}

@Suite struct CredentialChainPartsTests {
    @Test(arguments: [
        ("2019-11-09T13:34:41Z", 1_573_306_481.0),
        ("2019-11-09T13:34:41.123Z", 1_573_306_481.0),
        ("2019-11-09T14:34:41+01:00", 1_573_306_481.0),
        ("2019-11-09T13:34:41UTC", 1_573_306_481.0),
    ])
    func iso8601AsAWSWritesIt(text: String, seconds: Double) {
        #expect(ISO8601.parse(text) == Timestamp(secondsSince1970: seconds))
    }

    @Test func notADateIsNil() {
        #expect(ISO8601.parse("yesterday") == nil)
        #expect(ISO8601.parse("2019-13-09T13:34:41Z") == nil)
    }

    // The same words Python's shlex.split gives, which botocore uses for credential_process.
    @Test(arguments: [
        ("/usr/bin/helper --profile dev", ["/usr/bin/helper", "--profile", "dev"]),
        ("'/opt/my tools/helper' \"a b\" c\\ d", ["/opt/my tools/helper", "a b", "c d"]),
        ("helper \"say \\\"hi\\\" \\n\"", ["helper", "say \"hi\" \\n"]),
        ("helper ''", ["helper", ""]),
        ("helper; rm -rf /", ["helper;", "rm", "-rf", "/"]),
        ("a \"x\\$y\"", ["a", "x\\$y"]),
    ])
    func commandLinesSplitAsShlexDoes(text: String, words: [String]) throws {
        #expect(try CredentialProcess.split(text) == words)
    }

    @Test func anUnclosedQuoteIsAnError() {
        #expect(throws: CredentialProcess.Failure.self) { try CredentialProcess.split("helper 'open") }
    }

    @Test func refreshIsDue15MinutesAheadOrHalfwayThroughShortLifetimes() {
        let start = Timestamp(secondsSince1970: 1_000_000)
        func moment(_ lifetime: Double?) -> Double? {
            let found = ResolvedCredentials(
                credentials: AWSCredentials(accessKeyID: "A", secretAccessKey: "s"), source: "test",
                expiration: lifetime.map { start.adding(seconds: $0) })
            return RefreshingCredentials.refreshMoment(found, fetchedAt: start).map { $0.seconds(since: start) }
        }
        #expect(moment(nil) == nil)
        #expect(moment(3600) == 2700)
        #expect(moment(900) == 450)
        #expect(moment(-5) == 0)
    }

    @Test func configProfilesSSOSessionsAndCredentialsMerge() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config").path
        let credentials = directory.appendingPathComponent("credentials").path
        try "[default]\nregion = eu-west-1\n[profile dev]\nregion = us-east-1\naws_access_key_id = AKIDCONFIG\n[sso-session corp]\nsso_region = eu-central-1\n[stray]\nregion = x\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        try "[dev]\naws_access_key_id = AKIDCREDS\naws_secret_access_key = s\n".write(toFile: credentials, atomically: true, encoding: .utf8)
        let files = try AWSProfileFiles.load(environment: ["AWS_CONFIG_FILE": config, "AWS_SHARED_CREDENTIALS_FILE": credentials])
        #expect(files.profileNames == ["default", "dev"])
        #expect(files.profile("dev") == ["region": "us-east-1", "aws_access_key_id": "AKIDCREDS", "aws_secret_access_key": "s"])
        #expect(files.ssoSessions["corp"] == ["sso_region": "eu-central-1"])
        #expect(files.profile("stray") == nil)
    }

    /// A role profile's `duration_seconds` (and `role_session_name`, `external_id`) reach STS as AssumeRole's
    /// parameters; a value that is not a number is left out, as botocore drops it.
    @Test(arguments: [("900", true), ("15m", false)])
    func durationSecondsIsSentToSTS(duration: String, sent: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gqlc-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config").path
        try "[profile role]\nrole_arn = arn:aws:iam::123456789012:role/r\nsource_profile = base\nduration_seconds = \(duration)\nrole_session_name = s1\n[profile base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = secret\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let fake = FakeTransport([.success(HTTPResponse(status: 200, text: STSAnswerTests.assumeRoleExample))])
        let environment = ["AWS_CONFIG_FILE": config, "AWS_SHARED_CREDENTIALS_FILE": config + ".none", "HOME": directory.path]
        let chain = AWSCredentialChain(environment: environment, explicitProfile: "role", services: CredentialServices(transport: fake))
        _ = try chain.resolve()
        let body = String(decoding: try #require(fake.requests.first).body, as: UTF8.self)
        #expect(body.contains("RoleSessionName=s1"))
        #expect(body.contains("DurationSeconds=900") == sent)
        #expect(!body.contains("DurationSeconds=15m"))
    }
}
