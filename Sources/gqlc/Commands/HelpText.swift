/// The text of `gqlc help`, `gqlc --help` and `gqlc COMMAND --help`.
enum HelpText {
    /// The topic of `gqlc help options`: every global option explained.
    static let optionsTopic = "options"

    /// gqlc's help pages over the command table, with where settings come from after the global options.
    static let book = HelpBook(
        programName: CommandLineVocabulary.programName, globalOptions: GlobalOptions.all, commands: CommandTable.specs,
        optionsTopic: optionsTopic, settings: [configuration])

    /// The overview when `topic` is nil, the global options for ``optionsTopic``, else the page of the command
    /// named `topic` (or the overview if unknown), with every global option explained when `allGlobalOptions`.
    static func render(topic: String?, allGlobalOptions: Bool = false, renderer: HelpRenderer = HelpRenderer()) -> String {
        renderer.render(book.page(topic: topic, allGlobalOptions: allGlobalOptions) ?? overview(allGlobalOptions: allGlobalOptions))
    }

    /// gqlc(1): the overview and every command's page, in roff.
    static func manPage() -> String {
        ManPageRenderer(
            programName: CommandLineVocabulary.programName,
            summary: "a command-line GraphQL client for AWS AppSync and Amplify model APIs", version: Version.line,
            generator: "gqlc help --man", seeAlso: "gqlc help COMMAND, gqlc COMMAND --help"
        ).render(overview: overview(allGlobalOptions: true), commands: CommandTable.specs.map { ($0.name, book.page(for: $0)) })
    }

    /// The overview: commands, global options (their names, or each explained), configuration, exit status and
    /// examples.
    static func overview(allGlobalOptions: Bool = false) -> HelpPage {
        book.overview(
            abstract: """
                gqlc is a command-line GraphQL client for the AWS AppSync APIs that Amplify generates \
                from @model types, and, through 'gqlc raw', for any GraphQL server. It builds the same \
                queries and mutations as the Amplify libraries, prints results as JSON and follows \
                nextToken through every page.
                """,
            allGlobalOptions: allGlobalOptions,
            sections: [
                HelpSection("Exit status", [
                    .definitions([
                        ("0", "success"),
                        ("1", "GraphQL errors and no data, or a false --if condition"),
                        ("2", "usage or input error (bad arguments, a missing or malformed file)"),
                        ("3", "partial data: the response has both data and errors"),
                        ("4", "not found: no such record for get, update or delete"),
                        ("5", "HTTP error status, or a response that is not GraphQL"),
                        ("6", "network failure or timeout"),
                        ("7", "output could not be written: stdout or --rejects (a full disk, EIO)"),
                        ("8", "gqlc diff: the two sides differ"),
                        ("130", "interrupted (Ctrl-C); a listing prints where to resume"),
                        ("141", "stdout's reader went away (| head): ended by SIGPIPE, as jq is"),
                        ("143", "terminated (SIGTERM), as 130 otherwise"),
                    ])
                ]),
                HelpSection("Examples", [
                    .verbatim([
                        "gqlc models",
                        "gqlc get Post --id p1 --include comments",
                        "gqlc list Comment --limit 100 --where post=p1",
                        "gqlc create Post title='Hello' status=DRAFT tags:='[\"a\",\"b\"]'",
                        "gqlc update Post --id p1 status=PUBLISHED --if status=DRAFT",
                        "gqlc raw query.graphql --vars vars.json",
                        "AWS_PROFILE=admin gqlc --iam --region eu-west-1 list Post --limit 10",
                    ])
                ]),
            ])
    }

    /// Where the schema, endpoint and credentials come from: on the overview and on `gqlc help options`.
    static var configuration: HelpSection {
        HelpSection("Configuration", [
            .paragraph(
                """
                The schema is read from --schema, else $GQLC_SCHEMA, else the nearest amplify_outputs.json or \
                Gen 1 amplify/backend/api/NAME/schema.graphql (or, without it, the .graphql files of its schema/ \
                folder) in the working directory or its parents (--verbose names the file used), else the schema \
                'gqlc schema pull' cached for the endpoint. \
                The endpoint and credentials come from their options, else their environment \
                variables, else the schema file when it holds them (amplify_outputs.json and aws-exports.js \
                do; a Gen 1 schema takes them from the project's src/aws-exports.js).
                """),
            .paragraph(
                """
                IAM (SigV4) auth signs each request for service appsync. It is used with --iam or \
                GQLC_IAM=1, or when no API key or token is given and the schema file's default \
                authorization type is AWS_IAM. Credentials come from where the AWS CLI finds them, in \
                its order: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (not with --profile); the profile \
                (--profile, AWS_PROFILE or 'default') of ~/.aws/config and ~/.aws/credentials: role_arn \
                with source_profile or credential_source (STS AssumeRole), web identity \
                (AWS_WEB_IDENTITY_TOKEN_FILE), SSO (after aws sso login; its token is refreshed as the AWS \
                CLI does), static keys, credential_process; then the container endpoint and the instance \
                metadata service (AWS_EC2_METADATA_DISABLED=true skips it). AWS_ENDPOINT_URL_STS, \
                AWS_ENDPOINT_URL_SSO, AWS_ENDPOINT_URL_SSO_OIDC, AWS_ENDPOINT_URL or the profile's \
                endpoint_url move STS and SSO. Temporary credentials are refreshed before they expire; \
                --verbose names their source and each refresh. \
                Region: --region, the AppSync host name, the schema file, the profile's region, then \
                AWS_REGION or AWS_DEFAULT_REGION. Secrets are never printed.
                """),
            .paragraph(
                """
                Every FILE (--schema, --vars, --input, --filter @FILE, raw's document, the credentials \
                file) may also be a pipe, a FIFO, <(…) or a device such as /dev/stdin; it is read once. \
                '-' is standard input where the option says so.
                """),
        ])
    }
}
