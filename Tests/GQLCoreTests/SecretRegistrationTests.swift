import Testing
@testable import GQLCore

/// Secrets gqlc sends as they are are registered for scrubbing the moment they are sent (issue 22): a service that
/// repeats the request in its error must not make them show.
@Suite struct SecretRegistrationTests {
    /// Answers every request with a Cognito-style error that repeats the request's body.
    private static func echoingCognito() -> FakeTransport {
        FakeTransport(handler: { request, _ in
            let message = "cannot use " + String(decoding: request.body, as: UTF8.self)
            let body = JSONValue.object(["__type": "InvalidParameterException", "message": .string(message)]).serialized(.compact)
            return .success(HTTPResponse(status: 400, headers: [], body: Array(body.utf8)))
        })
    }

    private static func client(secret: String? = nil) -> CognitoClient {
        CognitoClient(
            config: UserPoolConfig(poolId: "us-east-1_Echo", clientId: "echo-client", clientSecret: secret,
                                   endpoint: "https://cognito.invalid/"),
            transport: echoingCognito())
    }

    @Test func aNewPasswordAnswerIsScrubbedFromAnErrorThatRepeatsIt() {
        let newPassword = "Fresh-N3w-Passw0rd-For-Ann"
        var message = ""
        do {
            _ = try Self.client().answer(
                challenge: "NEW_PASSWORD_REQUIRED", session: "session", parameters: [:], username: "ann", answer: newPassword)
        } catch {
            message = error.description
        }
        #expect(message.contains(newPassword))  // the service did repeat it
        #expect(!Redactor.none.scrub(message).contains("N3w-Passw0rd"))
    }

    @Test func aPasswordAndAClientSecretAreScrubbedFromAnErrorThatRepeatsThem() {
        var message = ""
        do {
            _ = try Self.client(secret: "client-secret-Zz9Yy8Xx7").signInPassword(username: "ann", password: "Pl41n-Passw0rd-Sent")
        } catch {
            message = error.description
        }
        #expect(message.contains("Pl41n-Passw0rd-Sent"))
        #expect(!Redactor.none.scrub(message).contains("Passw0rd"))
        #expect(!Redactor.none.scrub("secret client-secret-Zz9Yy8Xx7").contains("Zz9Yy8Xx7"))
    }
}
