import GQLCore


/// Shows who is signed in, from the stored tokens' claims; never a token.
enum WhoamiCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "whoami",
        abstract: "Show who is signed in: name, sub, e-mail, groups, token expiry.",
        synopsis: [UserPoolOptions.synopsis],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Prints one JSON object read from the tokens 'gqlc login' stored for the user pool and \
                    app client: username, sub, email, groups, userPoolId, clientId, expiresAt and whether \
                    the tokens have expired (they are refreshed on the next request). No token is printed \
                    and nothing is sent. Exits with status 5 when no one is signed in.
                    """),
            ])
        ],
        options: UserPoolOptions.all,
        examples: [
            Example("Who requests are sent as", "gqlc whoami"),
            Example("When the tokens expire", "gqlc whoami | jq -r .expiresAt"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> UserPoolOverrides {
        try UserPoolOptions.invocation(arguments)
    }

    static func run(_ invocation: UserPoolOverrides, in context: RunContext) -> ExitCode {
        let session = context.session
        do throws(RunFailure) {
            let (config, _, stored) = try session.resolve { resolver throws(ContextError) in
                try resolver.storedSignIn(invocation)
            }
            guard let signIn = stored else { throw RunFailure.cognito(.notSignedIn) }
            ResultPrinter(console: session.console, globals: session.globals).print(describe(signIn, config: config))
            return .success
        } catch {
            context.diagnostics.failure(error)
            return error.status
        }
    }

    /// The user's names and groups from the ID token (the access token when it lacks them), and the expiry.
    static func describe(_ signIn: StoredSignIn, config: UserPoolConfig) -> JSONValue {
        let id = JWTClaims(token: signIn.idToken)
        let access = JWTClaims(token: signIn.accessToken)
        var object: JSONObject = [
            "username": .string(access?.string("username") ?? id?.string("cognito:username") ?? signIn.username),
            "signedInAs": .string(signIn.username),
        ]
        object["sub"] = (id?.string("sub") ?? access?.string("sub")).map(JSONValue.string)
        object["email"] = id?.string("email").map(JSONValue.string)
        object["groups"] = .array((id?.groups ?? access?.groups ?? []).map(JSONValue.string))
        object["userPoolId"] = .string(config.poolId)
        object["clientId"] = .string(config.clientId)
        if let expiry = signIn.expiry {
            object["expiresAt"] = .string(iso8601(expiry))
            object["expired"] = .bool(expiry < Timestamp.now())
        }
        return .object(object)
    }

    private static func iso8601(_ moment: Timestamp) -> String {
        let c = moment.civil
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }
}
