import Foundation
import Testing
@testable import GQLCore

/// SigV4 against AWS's published example and against signatures computed by the local server's
/// independent Python verifier (DevServers/AppSyncLocal/appsync_local/sigv4.py), never by the code under test.
@Suite struct SigV4SignerTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"

    /// AWS General Reference, "Signature Version 4 signing process" (tasks 1-4 and the signed request):
    /// IAM ListUsers on 2011-09-09 at 23:36:00 UTC with AKIDEXAMPLE.
    @Test func awsDocumentationExample() {
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: Self.secret),
                                 region: "us-east-1", service: "iam")
        let request = HTTPRequest(
            url: EndpointURL(string: "http://iam.amazonaws.com/")!, method: "POST",
            headers: [HTTPHeader(name: "Content-type", value: "application/x-www-form-urlencoded; charset=utf-8")],
            body: Array("Action=ListUsers&Version=2010-05-08".utf8), timeout: 30)
        let date = Timestamp(secondsSince1970: 1_315_611_360)  // 2011-09-09T23:36:00Z
        let signed = signer.sign(request, at: date)
        #expect(signed.headers.value(for: "x-amz-date") == "20110909T233600Z")
        #expect(signed.headers.value(for: "Authorization") ==
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20110909/us-east-1/iam/aws4_request, "
            + "SignedHeaders=content-type;host;x-amz-date, "
            + "Signature=ced6826de92d2bdeed8f846f0bf508e8559e98e4b0199114b84c54174deb456c")
        let steps = signer.signature(for: signed, at: date)
        // The published hash of the canonical request (task 2) and signing key (task 3).
        #expect(SHA256.hash(steps.canonical.text).hexString == "3511de7e95d28ecd39e9513b642aee07e54f4941150d8df8bf94b328ef7e55e2")
        #expect(signer.signingKey(day: "20110909").hexString == "98f1d889fec4f4421adc522bab0ce1f82e6929c262ed15e5a94c90efd1e3b0e7")
    }

    static let appSyncURL = EndpointURL(string: "https://abcdefghijklmnopqrstuvwxyz.appsync-api.eu-west-1.amazonaws.com/graphql")!
    static let body = Array(#"{"query":"query { listPosts { items { id } } }"}"#.utf8)
    static let date = Timestamp(secondsSince1970: 1_710_495_000)  // 2024-03-15T09:30:00Z

    static func appSyncRequest(_ url: EndpointURL = appSyncURL, extra: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(url: url, headers: [
            HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "Accept", value: "application/json"),
        ] + extra, body: body, timeout: 30)
    }

    /// Temporary credentials: the token is sent and signed. Expected values from the Python verifier.
    @Test func appSyncRequestWithSessionToken() {
        let token = "IQoJb3JpZ2luX2VjEXAMPLETOKEN//+="
        let signer = SigV4Signer(
            credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: Self.secret, sessionToken: token),
            region: "eu-west-1")
        let signed = signer.sign(Self.appSyncRequest(), at: Self.date)
        let steps = signer.signature(for: signed, at: Self.date)
        #expect(steps.canonical.text == """
            POST
            /graphql

            content-type:application/json
            host:abcdefghijklmnopqrstuvwxyz.appsync-api.eu-west-1.amazonaws.com
            x-amz-date:20240315T093000Z
            x-amz-security-token:IQoJb3JpZ2luX2VjEXAMPLETOKEN//+=

            content-type;host;x-amz-date;x-amz-security-token
            819d3ae87cba5365657d4e09f4c5635e247e247a8c55a6648366f9d03e9131b4
            """)
        #expect(steps.stringToSign == """
            AWS4-HMAC-SHA256
            20240315T093000Z
            20240315/eu-west-1/appsync/aws4_request
            f31a660cbacde82342f16b01a3b1bae43844a9480e00e65b1dd2ff461a3054a7
            """)
        #expect(signed.headers.value(for: "X-Amz-Security-Token") == token)
        #expect(signed.headers.value(for: "Authorization") ==
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240315/eu-west-1/appsync/aws4_request, "
            + "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, "
            + "Signature=aaecd72ebcb747b9c4c8445bd6e00ce3d082acee0767fdc0ea9b974c3d0602db")
    }

    /// A local server: the port is part of the signed host. Expected signature from the Python verifier.
    @Test func hostWithPortAndNoToken() {
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: Self.secret),
                                 region: "us-east-1")
        var request = Self.appSyncRequest(EndpointURL(string: "http://127.0.0.1:20002/graphql")!)
        request.headers.removeAll { $0.hasName("Accept") }
        let signed = signer.sign(request, at: Self.date)
        #expect(signed.headers.value(for: "X-Amz-Security-Token") == nil)
        #expect(signed.headers.value(for: "Authorization")?.hasSuffix(
            "SignedHeaders=content-type;host;x-amz-date, Signature=9f382b4251391ccd9269483114a74f9f8a72aec58fe2dc37c89d84a4262bfff9") == true)
    }

    @Test func headersAreLowercasedTrimmedCollapsedAndSorted() {
        let request = HTTPRequest(url: EndpointURL(string: "https://example.com:443/graphql")!, headers: [
            HTTPHeader(name: "X-Amz-Meta", value: "  a   b\t c  "),
            HTTPHeader(name: "Content-TYPE", value: " application/json "),
            HTTPHeader(name: "x-amz-meta", value: "second"),
            HTTPHeader(name: "Accept", value: "application/json"),
            HTTPHeader(name: "X-Amz-Date", value: "20240315T093000Z"),
        ], body: [], timeout: 30)
        let canonical = CanonicalRequest(request)
        #expect(canonical.signedHeaders == "content-type;host;x-amz-date;x-amz-meta")
        #expect(canonical.text.contains("""
            content-type:application/json
            host:example.com
            x-amz-date:20240315T093000Z
            x-amz-meta:a b c,second

            """))
    }

    @Test func pathAndQueryAreEncodedForNonS3Services() {
        #expect(CanonicalRequest.canonicalURI(EndpointURL(string: "https://h/")!) == "/")
        #expect(CanonicalRequest.canonicalURI(EndpointURL(string: "https://h")!) == "/")
        #expect(CanonicalRequest.canonicalURI(EndpointURL(string: "https://h/a%20b/c~d")!) == "/a%2520b/c~d")
        #expect(CanonicalRequest.canonicalQuery(EndpointURL(string: "https://h/p?b=2&a=x%2Fy&a=1&c")!) == "a=1&a=x%2Fy&b=2&c=")
    }

    @Test(arguments: [
        (0.0, "19700101T000000Z"), (951_782_400, "20000229T000000Z"), (1_710_495_000.9, "20240315T093000Z"),
        (4_102_444_799, "20991231T235959Z"),
    ])
    func signingDates(seconds: Double, timestamp: String) {
        #expect(SigningDate(Timestamp(secondsSince1970: seconds)).timestamp == timestamp)
    }

    /// Signing replaces an earlier signature and never leaves a stale token or date.
    @Test func resigningReplacesTheOldSignature() {
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKID", secretAccessKey: "s"), region: "us-east-1")
        let first = signer.sign(Self.appSyncRequest(), at: Self.date)
        let second = signer.sign(first, at: Self.date.adding(seconds: 61))
        #expect(second.headers.filter { $0.hasName("Authorization") }.count == 1)
        #expect(second.headers.filter { $0.hasName("X-Amz-Date") }.map(\.value) == ["20240315T093101Z"])
        #expect(second.headers.value(for: "Authorization") != first.headers.value(for: "Authorization"))
    }

    @Test func credentialsNeverDescribeTheirSecrets() {
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: Self.secret, sessionToken: "tok-secret-123")
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [credentials.description, "\(credentials)", String(reflecting: credentials), dumped] {
            #expect(!text.contains(Self.secret) && !text.contains("tok-secret-123"), "\(text)")
        }
    }
}
