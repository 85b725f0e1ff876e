import GQLCore

/// `gqlc login [--username NAME] [--password-stdin] [--password-auth]`
struct LoginInvocation: Equatable, Sendable {
    let username: String?
    let passwordFromStandardInput: Bool
    let passwordAuth: Bool
    let userPool: UserPoolOverrides
}

/// Signs in to the app's Cognito user pool and stores the tokens that requests then send.
enum LoginCommand: CommandDefinition {
    static let username = OptionSpec(long: "username", value: "NAME", help: "The user to sign in as; asked for when not given (required with --password-stdin).")
    static let passwordStdin = OptionSpec(
        long: "password-stdin",
        help: "Read the password from the first line of standard input instead of asking on the terminal; later "
            + "lines answer a new-password or MFA-code challenge.")
    static let passwordAuth = OptionSpec(
        long: "password-auth",
        help: "Sign in with USER_PASSWORD_AUTH (the password goes to Cognito) instead of SRP; only for app clients "
            + "that allow it, which Amplify's do not.")

    static let spec = CommandSpec(
        name: "login",
        abstract: "Sign in to the app's Cognito user pool and store the tokens.",
        synopsis: ["[--username NAME] [--password-stdin] [--password-auth] " + UserPoolOptions.synopsis],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Signs in with SRP (USER_SRP_AUTH), as Amplify's libraries do, so the password never \
                    leaves this machine. The user pool and app client come from auth.user_pool_id and \
                    auth.user_pool_client_id in amplify_outputs.json (or aws_user_pools_id and \
                    aws_user_pools_web_client_id in a legacy config), unless given below. The password \
                    is never an argument: it is asked for without echo, or read from standard input \
                    with --password-stdin. A new-password, SMS, e-mail or authenticator-code challenge \
                    is asked for in the same way.
                    """),
                .paragraph(
                    """
                    Tokens are stored in $XDG_CONFIG_HOME/gqlc/tokens.json (else ~/.config/gqlc/), \
                    readable by you only, one entry per user pool and app client. Requests whose auth \
                    mode is userPool send the stored access token and refresh it before it expires.
                    """),
            ])
        ],
        options: [username, passwordStdin, passwordAuth] + UserPoolOptions.all,
        examples: [
            Example("Sign in to the user pool of the nearest amplify_outputs.json", "gqlc login --username ann@example.com"),
            Example("Sign in from a script", "printf '%s\\n' \"$PASSWORD\" | gqlc login --username ann --password-stdin"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> LoginInvocation {
        try arguments.expectNoPositionals(after: 0)
        let options = arguments.options
        // As `docker login`: standard input holds the password, so the user name cannot come from it too.
        if options.contains(passwordStdin) && options.value(username) == nil {
            throw UsageError("\(passwordStdin.flagName) needs \(username.flagName) NAME: standard input holds the password")
        }
        return LoginInvocation(
            username: options.value(username), passwordFromStandardInput: options.contains(passwordStdin),
            passwordAuth: options.contains(passwordAuth), userPool: UserPoolOptions.overrides(arguments))
    }

    static func run(_ invocation: LoginInvocation, in context: RunContext) -> ExitCode {
        let session = context.session
        do throws(RunFailure) {
            let config = try session.resolve { resolver throws(ContextError) in
                try resolver.userPoolConfig(file: resolver.schemaFile(required: false), overrides: invocation.userPool)
            }
            let store = try session.resolve { resolver throws(ContextError) in try resolver.tokenStore() }
            let prompter = Prompter(fromStandardInput: invocation.passwordFromStandardInput, cancellation: session.cancellation)
            var username = invocation.username ?? ""
            if invocation.username == nil { username = try prompter.line("username", secret: false) }
            let password = try prompter.line("password", secret: true)
            let client = try session.resolve { resolver throws(ContextError) in try resolver.cognitoClient(config) }
            var step = try cognito { () throws(CognitoError) in
                invocation.passwordAuth
                    ? try client.signInPassword(username: username, password: password)
                    : try client.signInSRP(username: username, password: password)
            }
            // Answer challenges (a new password, an MFA code) until Cognito hands out tokens.
            while case .challenge(let name, let challengeSession, let parameters) = step {
                guard CognitoClient.answerKey(for: name) != nil else { throw .cognito(.unsupportedChallenge(name)) }
                let what = name == "NEW_PASSWORD_REQUIRED" ? "new password" : "code (\(name))"
                let answer = try prompter.line(what, secret: name == "NEW_PASSWORD_REQUIRED")
                step = try cognito { () throws(CognitoError) in
                    try client.answer(
                        challenge: name, session: challengeSession, parameters: parameters, username: username, answer: answer)
                }
            }
            guard case .signedIn(let tokens) = step else { return .httpError }
            let signIn = StoredSignIn(
                username: username, accessToken: tokens.accessToken, idToken: tokens.idToken, refreshToken: tokens.refreshToken)
            try cognito { () throws(CognitoError) in try store.store(signIn, for: config.storeKey) }
            session.console.error.write("Signed in as \(username) to \(config.poolId); tokens stored in \(store.path)\n")
            return .success
        } catch {
            context.diagnostics.failure(error)
            return error.status
        }
    }

    /// Runs a Cognito step, its failure a ``RunFailure``.
    private static func cognito<T>(_ body: () throws(CognitoError) -> T) throws(RunFailure) -> T {
        do {
            return try body()
        } catch {
            throw .cognito(error)
        }
    }
}
