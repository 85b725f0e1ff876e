import GQLCore


/// Forgets the stored tokens, after asking Cognito to revoke the refresh token.
enum LogoutCommand: CommandDefinition {
    static let spec = CommandSpec(
        name: "logout",
        abstract: "Forget the stored tokens and revoke the refresh token.",
        synopsis: [UserPoolOptions.synopsis],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Asks Cognito to revoke the refresh token (RevokeToken), then removes the user pool's \
                    entry from the token file; other user pools' entries stay. When the revocation fails \
                    (a server without RevokeToken, no network) the tokens are still forgotten and a \
                    warning says so.
                    """),
            ])
        ],
        options: UserPoolOptions.all,
        examples: [
            Example("Sign out of the nearest amplify_outputs.json's user pool", "gqlc logout"),
            Example("Sign out of another app's user pool", "gqlc logout --schema ../shop/amplify_outputs.json"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> UserPoolOverrides {
        try UserPoolOptions.invocation(arguments)
    }

    static func run(_ invocation: UserPoolOverrides, in context: RunContext) -> ExitCode {
        let errors = context.session.console.error
        do throws(AccountError) {
            let (poolId, signedOut) = try LogoutOperation(userPool: invocation).run(resolver: context.session.resolver) { error in
                context.diagnostics.error("warning: the refresh token was not revoked: \(error.commandLineMessage)")
            }
            errors.write(signedOut ? "Signed out of \(poolId)\n" : "Not signed in to \(poolId); nothing to forget\n")
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
