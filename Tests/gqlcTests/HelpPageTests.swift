import Testing

@testable import gqlc

/// Whole help pages, pinned as swift-argument-parser's example tests pin theirs: any change to a command's
/// synopsis, wording, option order, wrapping or examples shows in review as a change to this file. Pages of
/// two commands are pinned; every page shares their layout and the global options.
@Suite struct HelpPageTests {
    @Test func getHelpPage() {
        #expect(HelpText.render(topic: "get") == Self.get)
    }

    @Test func listHelpPage() {
        #expect(HelpText.render(topic: "list") == Self.list)
    }

    static let get = #"""
        Usage: gqlc get MODEL (--id VALUE | --key FIELD=VALUE...) [--include PATH]...
                        [--fields A,B,…] [--no-follow]

        Fetch one record by its primary key and print it as JSON.

        Give --id for a model whose primary key is one field, or one --key per field of
        a composite key. --include adds associations: a has-many list, a belongs-to or
        has-one record, or a path through them. Included lists are fetched page by page
        to the end unless --no-follow is given. If no record has that key, gqlc exits
        with status 4.

        Arguments:
          MODEL  The model's name as the schema spells it, e.g. Post.

        Options:
              --id VALUE            The record's primary key, for models whose key is a
                                    single field (usually id).
              --key FIELD=VALUE     One field of a composite primary key; give one --key
                                    per key field. (repeatable)
              --include PATH        Also fetch an association, named by a dot path from
                                    MODEL: comments, blog, comments.post. (repeatable)
              --fields A,B,…        Ask only for these fields (key fields are always
                                    included), by dot path into --include'd associations
                                    and embedded types: title,comments.items.content.
                                    (repeatable)
              --no-follow           Keep only the server's first page of each included
                                    list (with its nextToken) instead of following it to
                                    the end.

        Global options:
              --env NAME            Take settings from the named environment NAME of
                                    gqlc's config file (see 'gqlc help env'); flags and
                                    GQLC_* variables still win. (env: GQLC_ENV)
              --schema FILE         The model schema: model-introspection JSON,
                                    amplify_outputs.json, amplifyconfiguration.json, the
                                    @model schema.graphql (or a folder of .graphql
                                    files), or aws-exports.js. Without it, gqlc looks in
                                    . and its parents for amplify_outputs.json or
                                    amplify/backend/api/NAME/schema.graphql (or
                                    NAME/schema/). (default: the nearest Amplify schema;
                                    env: GQLC_SCHEMA)
              --endpoint URL        The GraphQL endpoint. Defaults to the URL in the
                                    schema file when it has one. (env: GQLC_ENDPOINT)
              --api-key KEY         Send KEY in the x-api-key header (AppSync API-key
                                    auth). (env: GQLC_API_KEY)
              --auth-token TOKEN    Send TOKEN as the Authorization header, as given (no
                                    'Bearer' prefix is added). (env: GQLC_AUTH_TOKEN)
              --iam                 Sign requests with AWS SigV4 (AppSync IAM auth),
                                    with credentials found as the AWS CLI finds them
                                    (environment, profile, SSO, roles,
                                    credential_process, container, instance). On by
                                    default when no API key or token is given and the
                                    schema file's default authorization type is AWS_IAM.
                                    (env: GQLC_IAM)
              --region REGION       The AWS region to sign for. Defaults to the region
                                    in an AppSync endpoint's host name, the schema
                                    file's region, the AWS profile's region, then
                                    AWS_REGION or AWS_DEFAULT_REGION.
              --profile NAME        Sign with IAM credentials from this profile of
                                    ~/.aws/config and ~/.aws/credentials
                                    (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE):
                                    keys, a role, SSO or credential_process; it wins
                                    over AWS_ACCESS_KEY_ID. Else AWS_PROFILE, else
                                    'default'. Implies --iam when no API key or token is
                                    given.
              --auth-mode apiKey|iam|userPool|oidc|lambda
                                    The AppSync authorization mode. Without it, model
                                    commands take the first mode the model's auth rules
                                    allow among the schema file's authorization types,
                                    in the order Amplify's multi-auth uses; userPool
                                    sends the token stored by 'gqlc login'.
                                    (env: GQLC_AUTH_MODE)
              --token-use access|id
                                    Which stored user-pool token to send: access, as
                                    Amplify does, or id (for rules on e-mail or custom
                                    claims). (default: access)
          -H, --header 'NAME: VALUE'
                                    Add an HTTP header to every request. (repeatable)
              --cacert FILE         Verify HTTPS servers with the CA certificates in
                                    FILE (PEM) instead of the system's, e.g. for a
                                    private CA. Without it and $CURL_CA_BUNDLE,
                                    $SSL_CERT_FILE is read. (env: CURL_CA_BUNDLE)
              --timeout SECONDS     Give up on a request after SECONDS. (default: 30)
              --retries N           Retry a query up to N times after a network error, a
                                    timeout, HTTP 429, 500, 502, 503 or 504.
                                    (default: 3)
              --retry-mutations     Retry mutations too, where a retry cannot apply
                                    twice: a create keeps its key, an update or delete
                                    needs --if.
              --dry-run             Print the JSON body that would be POSTed, and exit
                                    without sending it.
          -v, --verbose             Trace requests and responses on standard error
                                    (secrets redacted).
          -q, --quiet               Show no progress line on standard error (shown only
                                    when it is a terminal).
          -o, --output json|ndjson|table|tsv|raw
                                    json prints one JSON document; ndjson prints one
                                    record per line (list items stream; an array result
                                    is split); table prints columns fitted to the
                                    terminal; tsv prints tab-separated columns under a
                                    header line; raw prints the one field of --fields
                                    per line, strings unquoted (as jq -r). table, tsv
                                    and raw are for get, list, create, update and
                                    delete. models prints text unless this is given.
                                    (default: json)
              --pretty              Indent the JSON output (the default when standard
                                    output is a terminal).
              --compact             Print the JSON output on one line (the default when
                                    it is not a terminal).
              --color auto|always|never
                                    Colour JSON and tables: auto colours when standard
                                    output is a terminal and NO_COLOR is not set.
                                    (default: auto)
              --raw-response        Print the whole response envelope, {"data": …,
                                    "errors": […]}.
              --decode-json-fields  Print AWSJSON fields as JSON values instead of the
                                    strings the server sends.
          -y, --yes                 Answer yes to confirmations: deleting what --where
                                    matched or --cascade found, and writes to a
                                    protected environment (needed when standard input is
                                    not a terminal).
          -h, --help                Show help for gqlc or for the command.
              --version             Print the version of gqlc.

        Examples:
          # Fetch a post and all of its comments
          gqlc get Post --id p1 --include comments

          # Fetch an item by its three-field key
          gqlc get InventoryItem --key sku=A1 --key warehouseId=W1 --key bin=3

          # A post's title and its comments' text
          gqlc get Post --id p1 --include comments \
              --fields title,comments.items.content

          # Fetch a comment, its post and the first page of the post's comments
          gqlc get Comment --id c1 --include post.comments --no-follow

        """#

    static let list = #"""
        Usage: gqlc list MODEL [--index QUERYFIELD [--sort asc|desc]] [--where EXPR]...
                         [--filter JSON|@FILE] [--limit N] [--page-size N]
                         [--next-token TOKEN] [--include PATH]... [--fields A,B,…]
                         [--no-follow]
               gqlc list MODEL --count [--index QUERYFIELD] [--where EXPR]...
                         [--filter JSON|@FILE] [--page-size N]

        List a model's records, following nextToken until the last page.

        Records are printed as they arrive: as one JSON array with --output json, or one
        record per line with --output ndjson. Paging stops after the last page, or once
        --limit records have been printed.

        Every request asks for --page-size records, with or without --limit, so --limit
        never costs extra requests. When the listing stops early (--limit, an error,
        Ctrl-C), gqlc prints 'next token: TOKEN' on stderr; --next-token TOKEN with the
        same model, index and filter continues without losing or repeating a record. A
        token that starts with 'gqlc1:' points inside a page: it holds the server's
        token of that page, the page size it was read with and how many of its records
        were printed, and it resumes only the listing that printed it.

        --include fetches associations of each record. Included lists are followed page
        by page to their end before the record is printed, as with get; --no-follow
        keeps the server's first page of each (100 records on AppSync) and its
        nextToken.

        --count pages through every match asking only for the key fields, and prints the
        number. AppSync has no count operation, so counting still reads every page; it
        only makes the pages small.

        Listing through an index:
          Without --index, list sends list<Models>, which DynamoDB runs as a Scan of the
          whole table: each page reads --page-size records and only then applies the
          filter, so a selective --where can page through many empty pages. With
          --index, gqlc sends the index's query field instead, a DynamoDB Query that
          reads only the partition given by --where PARTITIONKEY=VALUE. With a single
          sort key, a clause on it with = < <= > >= ^= or LOW..HIGH becomes the key
          condition. With a composite sort key, = clauses on its leading fields narrow
          the Query by prefix and also stay in the filter. Every other clause, and
          --filter, is the filter.

        Where expressions:
          FIELD=VALUE      equal (eq)
          FIELD!=VALUE     not equal (ne)
          FIELD<VALUE      less than (lt)
          FIELD<=VALUE     less than or equal (le)
          FIELD>VALUE      greater than (gt)
          FIELD>=VALUE     greater than or equal (ge)
          FIELD^=VALUE     begins with (beginsWith)
          FIELD*=VALUE     contains a substring or list element (contains)
          FIELD!*=VALUE    does not contain (notContains)
          FIELD=LOW..HIGH  between LOW and HIGH, both included (between)
          FIELD?           the field has a value (attributeExists: true)
          FIELD!?          the field has no value (attributeExists: false)

          VALUE is converted by the field's type (numbers, true/false, enum names) and
          checked against AppSync's formats (AWSDate, AWSDateTime, AWSEmail, …) before
          anything is sent; the word null means null. On an AWSDateTime field a date
          alone (createdAt>2025-01-01) means the start of that day in UTC; relative
          words such as yesterday are refused. LOW must not be above HIGH. A belongs-to
          association stands for its foreign key: --where post=p1 matches postId; fields
          of related records (blog.name) cannot be filtered. Quote expressions that
          contain < > ! * ? for the shell. The same grammar serves --if on update and
          delete.

        Arguments:
          MODEL  The model's name as the schema spells it, e.g. Post.

        Options:
              --index QUERYFIELD    Query this secondary index (its query field or index
                                    name, as 'gqlc models MODEL' shows) instead of
                                    scanning the table; needs --where on the index's
                                    partition key.
              --sort asc|desc       Order an --index query by the index's sort key
                                    (default asc).
              --where EXPR          Keep records that match EXPR (see Where
                                    expressions); several are AND-ed. (repeatable)
              --filter JSON|@FILE   An AppSync filter object, inline or read from FILE
                                    ('@-' reads standard input); AND-ed with --where.
              --limit N             Print at most N records, then stop paging and print
                                    where to resume ('next token:' on stderr).
              --page-size N         Ask the server for up to N records per request.
                                    (default: 1000)
              --next-token TOKEN    Resume from this token: a 'next token:' printed by
                                    gqlc, or a nextToken from an earlier response.
              --include PATH        Also fetch an association, named by a dot path from
                                    MODEL: comments, blog, comments.post. (repeatable)
              --fields A,B,…        Ask only for these fields (key fields are always
                                    included), by dot path into --include'd associations
                                    and embedded types: title,comments.items.content.
                                    (repeatable)
              --no-follow           Keep only the server's first page of each included
                                    list (with its nextToken) instead of following it to
                                    the end.
              --count               Print the number of matching records instead of the
                                    records, paging with the key fields only.

        Global options:
              --env NAME            Take settings from the named environment NAME of
                                    gqlc's config file (see 'gqlc help env'); flags and
                                    GQLC_* variables still win. (env: GQLC_ENV)
              --schema FILE         The model schema: model-introspection JSON,
                                    amplify_outputs.json, amplifyconfiguration.json, the
                                    @model schema.graphql (or a folder of .graphql
                                    files), or aws-exports.js. Without it, gqlc looks in
                                    . and its parents for amplify_outputs.json or
                                    amplify/backend/api/NAME/schema.graphql (or
                                    NAME/schema/). (default: the nearest Amplify schema;
                                    env: GQLC_SCHEMA)
              --endpoint URL        The GraphQL endpoint. Defaults to the URL in the
                                    schema file when it has one. (env: GQLC_ENDPOINT)
              --api-key KEY         Send KEY in the x-api-key header (AppSync API-key
                                    auth). (env: GQLC_API_KEY)
              --auth-token TOKEN    Send TOKEN as the Authorization header, as given (no
                                    'Bearer' prefix is added). (env: GQLC_AUTH_TOKEN)
              --iam                 Sign requests with AWS SigV4 (AppSync IAM auth),
                                    with credentials found as the AWS CLI finds them
                                    (environment, profile, SSO, roles,
                                    credential_process, container, instance). On by
                                    default when no API key or token is given and the
                                    schema file's default authorization type is AWS_IAM.
                                    (env: GQLC_IAM)
              --region REGION       The AWS region to sign for. Defaults to the region
                                    in an AppSync endpoint's host name, the schema
                                    file's region, the AWS profile's region, then
                                    AWS_REGION or AWS_DEFAULT_REGION.
              --profile NAME        Sign with IAM credentials from this profile of
                                    ~/.aws/config and ~/.aws/credentials
                                    (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE):
                                    keys, a role, SSO or credential_process; it wins
                                    over AWS_ACCESS_KEY_ID. Else AWS_PROFILE, else
                                    'default'. Implies --iam when no API key or token is
                                    given.
              --auth-mode apiKey|iam|userPool|oidc|lambda
                                    The AppSync authorization mode. Without it, model
                                    commands take the first mode the model's auth rules
                                    allow among the schema file's authorization types,
                                    in the order Amplify's multi-auth uses; userPool
                                    sends the token stored by 'gqlc login'.
                                    (env: GQLC_AUTH_MODE)
              --token-use access|id
                                    Which stored user-pool token to send: access, as
                                    Amplify does, or id (for rules on e-mail or custom
                                    claims). (default: access)
          -H, --header 'NAME: VALUE'
                                    Add an HTTP header to every request. (repeatable)
              --cacert FILE         Verify HTTPS servers with the CA certificates in
                                    FILE (PEM) instead of the system's, e.g. for a
                                    private CA. Without it and $CURL_CA_BUNDLE,
                                    $SSL_CERT_FILE is read. (env: CURL_CA_BUNDLE)
              --timeout SECONDS     Give up on a request after SECONDS. (default: 30)
              --retries N           Retry a query up to N times after a network error, a
                                    timeout, HTTP 429, 500, 502, 503 or 504.
                                    (default: 3)
              --retry-mutations     Retry mutations too, where a retry cannot apply
                                    twice: a create keeps its key, an update or delete
                                    needs --if.
              --dry-run             Print the JSON body that would be POSTed, and exit
                                    without sending it.
          -v, --verbose             Trace requests and responses on standard error
                                    (secrets redacted).
          -q, --quiet               Show no progress line on standard error (shown only
                                    when it is a terminal).
          -o, --output json|ndjson|table|tsv|raw
                                    json prints one JSON document; ndjson prints one
                                    record per line (list items stream; an array result
                                    is split); table prints columns fitted to the
                                    terminal; tsv prints tab-separated columns under a
                                    header line; raw prints the one field of --fields
                                    per line, strings unquoted (as jq -r). table, tsv
                                    and raw are for get, list, create, update and
                                    delete. models prints text unless this is given.
                                    (default: json)
              --pretty              Indent the JSON output (the default when standard
                                    output is a terminal).
              --compact             Print the JSON output on one line (the default when
                                    it is not a terminal).
              --color auto|always|never
                                    Colour JSON and tables: auto colours when standard
                                    output is a terminal and NO_COLOR is not set.
                                    (default: auto)
              --raw-response        Print the whole response envelope, {"data": …,
                                    "errors": […]}.
              --decode-json-fields  Print AWSJSON fields as JSON values instead of the
                                    strings the server sends.
          -y, --yes                 Answer yes to confirmations: deleting what --where
                                    matched or --cascade found, and writes to a
                                    protected environment (needed when standard input is
                                    not a terminal).
          -h, --help                Show help for gqlc or for the command.
              --version             Print the version of gqlc.

        Examples:
          # The first 100 comments on post p1
          gqlc list Comment --limit 100 --where post=p1

          # The same through the index on postId: a Query, not a Scan
          gqlc list Comment --index commentsByPostId --where post=p1 --limit 100

          # Blog b1's posts whose title starts with 'Swift', last title first
          gqlc list Post --index postsByBlogId --where blogId=b1 \
              --where 'title^=Swift' --sort desc

          # Titles of well-rated published posts, one per line
          gqlc list Post --where status=PUBLISHED --where 'rating>=4' \
              --output ndjson | jq -r .title

          # How many comments post p1 has
          gqlc list Comment --where post=p1 --count

          # Titles and ratings as a table
          gqlc list Post --fields title,rating --output table

          # Posts whose title starts with 'Swift', with their comments
          gqlc list Post --where 'title^=Swift' --include comments

        """#

    /// The global options, the same on every page (pinned once here, in both pages above).
    static let globalOptions = #"""


        """#
}
