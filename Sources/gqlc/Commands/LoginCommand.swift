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
        let prompter = Prompter(fromStandardInput: invocation.passwordFromStandardInput, cancellation: session.cancellation)
        var unanswered: RunFailure?
        let operation = LoginOperation(username: invocation.username, passwordAuth: invocation.passwordAuth, userPool: invocation.userPool)
        do throws(AccountError) {
            let signedIn = try operation.run(resolver: session.resolver) { question in
                do throws(RunFailure) {
                    return try prompter.line(question.label, secret: question.isSecret)
                } catch {
                    unanswered = error
                    return nil
                }
            }
            session.console.error.write("Signed in as \(signedIn.username) to \(signedIn.poolId); tokens stored in \(signedIn.tokenFile)\n")
            return .success
        } catch {
            return context.fail(error, unanswered: unanswered)
        }
    }
}

extension RunContext {
    /// An account command's failure, reported; its exit status (a sign-in Cognito ended without tokens: 5).
    func fail(_ error: AccountError, unanswered: RunFailure? = nil) -> ExitCode {
        let failure: RunFailure
        switch error {
        case .context(let error): failure = RunFailure(error)
        case .cognito(let error): failure = .cognito(error)
        case .unanswered: failure = unanswered ?? .interrupted
        case .noTokens:
            diagnostics.error("Cognito ended the sign-in without tokens; nothing was stored")
            return .httpError
        }
        diagnostics.failure(failure)
        return failure.status
    }
}
