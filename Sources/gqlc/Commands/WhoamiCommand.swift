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
        do throws(AccountError) {
            let described = try WhoamiOperation(userPool: invocation).run(resolver: context.session.resolver)
            ResultPrinter(console: context.session.console, globals: context.session.globals).print(described)
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
