import GQLCore

/// The options `login`, `whoami` and `logout` share: which user pool and app client, overriding the schema file.
enum UserPoolOptions {
    static let userPoolId = OptionSpec(
        long: "user-pool-id", value: "ID", environment: "GQLC_USER_POOL_ID",
        help: "The Cognito user pool, e.g. us-east-1_AbC123. Defaults to auth.user_pool_id in the schema file.")
    static let clientId = OptionSpec(
        long: "client-id", value: "ID", environment: "GQLC_CLIENT_ID",
        help: "The user pool's app client. Defaults to auth.user_pool_client_id in the schema file.")
    static let clientSecret = OptionSpec(
        long: "client-secret", value: "SECRET", environment: "GQLC_CLIENT_SECRET",
        help: "The app client's secret, for clients that have one (Amplify's web clients do not). @FILE reads it from "
            + "FILE, - from standard input: other users can see a flag's value in ps.")
    static let cognitoEndpoint = OptionSpec(
        long: "cognito-endpoint", value: "URL", environment: "GQLC_COGNITO_ENDPOINT",
        help: "Send Cognito requests to URL instead of https://cognito-idp.REGION.amazonaws.com/ (for a local Cognito).")

    static let all = [userPoolId, clientId, clientSecret, cognitoEndpoint]
    /// Their part of a synopsis.
    static let synopsis = "[--user-pool-id ID] [--client-id ID] [--client-secret SECRET] [--cognito-endpoint URL]"

    /// The invocation of `whoami` and `logout`, which take these options and nothing else.
    static func invocation(_ arguments: CommandArguments) throws(UsageError) -> UserPoolOverrides {
        try arguments.expectNoPositionals(after: 0)
        return overrides(arguments)
    }

    /// The values given on the command line (the environment is read later, by the session).
    static func overrides(_ arguments: CommandArguments) -> UserPoolOverrides {
        let options = arguments.options
        return UserPoolOverrides(
            poolId: options.value(userPoolId), clientId: options.value(clientId),
            clientSecret: options.value(clientSecret), endpoint: options.value(cognitoEndpoint))
    }
}
