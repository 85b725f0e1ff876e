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
        let session = context.session
        do throws(RunFailure) {
            let (config, store, stored) = try session.resolve { resolver throws(ContextError) in
                try resolver.storedSignIn(invocation)
            }
            guard let signIn = stored else {
                session.console.error.write("Not signed in to \(config.poolId); nothing to forget\n")
                return .success
            }
            let client = try session.resolve { resolver throws(ContextError) in try resolver.cognitoClient(config) }
            do throws(CognitoError) {
                if let refreshToken = signIn.refreshToken {
                    do throws(CognitoError) {
                        try client.revoke(refreshToken: refreshToken)
                    } catch {
                        context.diagnostics.error("warning: the refresh token was not revoked: \(error.commandLineMessage)")
                    }
                }
                try store.store(nil, for: config.storeKey)
            } catch {
                throw RunFailure.cognito(error)
            }
            session.console.error.write("Signed out of \(config.poolId)\n")
            return .success
        } catch {
            context.diagnostics.failure(error)
            return error.status
        }
    }
}
