import GQLCore

/// `gqlc list MODEL [--index QUERYFIELD [--sort asc|desc]] [--where EXPR]... [--filter JSON|@FILE] [--limit N]
/// [--page-size N] [--next-token T] [--include PATH]... [--fields A,B,…] [--no-follow] [--include-deleted]`,
/// `gqlc list MODEL --count …` and `gqlc list MODEL --watch …` (the synopses of ``ListCommand/spec``).
struct ListInvocation: Equatable, Sendable {
    let model: String
    /// The secondary index to query (its queryField or name); nil scans the table with `list<Models>`.
    let index: String?
    /// The index query's order by its sort key; only with `index`.
    let sort: SortDirection?
    /// `--where` expressions, AND-ed.
    let conditions: [String]
    /// A whole AppSync filter object, AND-ed with `conditions`.
    let filter: FilterArgument?
    /// The most items to print; nil prints every item.
    let limit: Int?
    /// The `limit` sent with each page request.
    let pageSize: Int
    /// The token of the first page to fetch.
    let nextToken: String?
    let includes: [String]
    /// `--fields` paths; nil selects every field.
    var fields: [String]? = nil
    /// `--count`: print the number of matching records instead of the records.
    var count = false
    /// Whether included has-many lists are paged to the end (false with `--no-follow`: the server's first page).
    let followIncludedLists: Bool
    /// `--watch`: keep the listing live; with `interval`, by listing again every `interval` seconds.
    var watch: Watch? = nil
    /// With `watch`: stop after this many seconds (the global `--timeout`, given on the command line).
    var watchDuration: Double? = nil
    /// With `watch` on a terminal: `--sort FIELD` orders the table (`-FIELD` descending).
    var watchSort: WatchSort? = nil

    /// `--sort FIELD` with `--watch`.
    typealias WatchSort = LiveTable.Sort


    /// How `--watch` follows changes.
    enum Watch: Equatable, Sendable {
        /// The model's create, update and delete subscriptions.
        case subscriptions
        /// Listing again every so many seconds (`--interval`).
        case polling(seconds: Double)
    }

    /// `--include-deleted`: soft-deleted records are listed (and counted) too.
    var includeDeleted = false
    /// Whether `--page-size` was given: it then also sizes the further pages of included lists (else 100, Amplify's).
    var pageSizeGiven = false
}

/// `--filter JSON` or `--filter @FILE` (`@-` reads standard input).
enum FilterArgument: Equatable, Sendable {
    /// An inline JSON object, already parsed.
    case json(JSONValue)
    case file(InputSource)
}

/// Lists the records of a model, following nextToken to the last page.
enum ListCommand: CommandDefinition {

    static let whereOption = OptionSpec(
        long: "where", value: "EXPR", repeatable: true,
        help: "Keep records that match EXPR (see Where expressions); several are AND-ed.").completing(.where)
    static let filter = OptionSpec(
        long: "filter", value: "JSON|@FILE",
        help: """
            An AppSync filter object, inline or read from FILE ('@-' reads standard input); \
            AND-ed with --where.
            """)
    static let index = OptionSpec(
        long: "index", value: "QUERYFIELD",
        help: """
            Query this secondary index (its query field or index name, as 'gqlc models MODEL' shows) \
            instead of scanning the table; needs --where on the index's partition key.
            """).completing(.index)
    // With --watch the value may be -FIELD (descending).
    static let sort = OptionSpec(
        long: "sort", value: SortDirection.placeholder, valueMayStartWithDash: true,
        help: "Order an --index query by the index's sort key (default asc). With --watch: the FIELD that orders the live table (-FIELD descending).")
    static let limit = OptionSpec(
        long: "limit", value: "N",
        help: "Print at most N records, then stop paging and print where to resume ('next token:' on stderr).")
    static let pageSize = OptionSpec(
        long: "page-size", value: "N", default: String(Defaults.pageSize),
        help: "Ask the server for up to N records per request.")
    // Tokens are opaque (base64url may start with '-'): the next argument is the token, whatever it looks like.
    static let nextToken = OptionSpec(
        long: "next-token", value: "TOKEN", valueMayStartWithDash: true, help: "Resume from this token: a 'next token:' printed by gqlc, or a nextToken from an earlier response.")

    static let count = OptionSpec(
        long: "count",
        help: "Print the number of matching records instead of the records, paging with the key fields only.")

    static let watch = OptionSpec(
        long: "watch",
        help: """
            Keep the listing live, as Amplify's observeQuery does: subscribe to the model's creates, updates and \
            deletes (filtered by --where), list to the end, then apply each change. On a terminal a table is \
            redrawn in place (q or Ctrl-C leaves); otherwise one JSON line per event (see Watching).
            """)
    static let interval = OptionSpec(
        long: "interval", value: "SECONDS",
        help: "With --watch: list again every SECONDS instead of subscribing (for filters and models subscriptions cannot serve).")

    static let spec = CommandSpec(
        name: "list",
        traits: [.printsRecords],
        abstract: "List a model's records, following nextToken until the last page.",
        synopsis: [
            """
            MODEL [--index QUERYFIELD [--sort asc|desc]] [--where EXPR]... [--filter JSON|@FILE] [--limit N] \
            [--page-size N] [--next-token TOKEN] [--include PATH]... [--fields A,B,…] [--no-follow] [--include-deleted]
            """,
            "MODEL --count [--index QUERYFIELD] [--where EXPR]... [--filter JSON|@FILE] [--page-size N] [--include-deleted]",
            "MODEL --watch [--interval SECONDS] [--where EXPR]... [--fields A,B,…] [--timeout SECONDS]",
        ],
        discussion: [
            HelpSection([
                .paragraph(
                    """
                    Records are printed as they arrive: as one JSON array with --output json, or one \
                    record per line with --output ndjson. Paging stops after the last page, or once \
                    --limit records have been printed.
                    """),
                .paragraph(
                    """
                    Every request asks for --page-size records, with or without --limit, so --limit \
                    never costs extra requests. When the listing stops early (--limit, an error, \
                    Ctrl-C), gqlc prints 'next token: TOKEN' on stderr; --next-token TOKEN with the \
                    same model, index and filter continues without losing or repeating a record. A \
                    token that starts with 'gqlc1:' points inside a page: it holds the server's token \
                    of that page, the page size it was read with and how many of its records were \
                    printed, and it resumes only the listing that printed it.
                    """),
                .paragraph(
                    """
                    --include fetches associations of each record. Included lists are followed page \
                    by page to their end before the record is printed, as with get; --no-follow \
                    keeps the server's first page of each (100 records on AppSync) and its nextToken.
                    """),
                .paragraph(
                    """
                    --count pages through every match asking only for the key fields, and prints the \
                    number. AppSync has no count operation, so counting still reads every page; it \
                    only makes the pages small.
                    """),
            ]),
            HelpSection("Watching", [
                .paragraph(
                    """
                    --watch subscribes to the model's creates, updates and deletes (filtered by --where), \
                    lists to the end, then applies each change, as Amplify's observeQuery does: a live \
                    table on a terminal, else JSON lines ({"event": "item"|"synced"|"create"|"update"|"delete", \
                    …}). --interval SECONDS lists again instead, for filters subscriptions cannot express. \
                    See docs/live-data.md.
                    """),
            ]),
            HelpSection("Listing through an index", [
                .paragraph(
                    """
                    Without --index, list sends list<Models>, which DynamoDB runs as a Scan of the \
                    whole table: each page reads --page-size records and only then applies the \
                    filter, so a selective --where can page through many empty pages. With --index, \
                    gqlc sends the index's query field instead, a DynamoDB Query that reads only the \
                    partition given by --where PARTITIONKEY=VALUE. With a single sort key, a clause \
                    on it with = < <= > >= ^= or LOW..HIGH becomes the key condition. With a \
                    composite sort key, = clauses on its leading fields narrow the Query by prefix \
                    and also stay in the filter. Every other clause, and --filter, is the filter.
                    """),
            ]),
            HelpSection("Where expressions", [
                .definitions([
                    ("FIELD=VALUE", "equal (eq)"),
                    ("FIELD!=VALUE", "not equal (ne)"),
                    ("FIELD<VALUE", "less than (lt)"),
                    ("FIELD<=VALUE", "less than or equal (le)"),
                    ("FIELD>VALUE", "greater than (gt)"),
                    ("FIELD>=VALUE", "greater than or equal (ge)"),
                    ("FIELD^=VALUE", "begins with (beginsWith)"),
                    ("FIELD*=VALUE", "contains a substring or list element (contains)"),
                    ("FIELD!*=VALUE", "does not contain (notContains)"),
                    ("FIELD=LOW..HIGH", "between LOW and HIGH, both included (between)"),
                    ("FIELD?", "the field has a value (attributeExists: true)"),
                    ("FIELD!?", "the field has no value (attributeExists: false)"),
                ]),
                .paragraph(
                    """
                    VALUE is converted by the field's type (numbers, true/false, enum names) and \
                    checked against AppSync's formats (AWSDate, AWSDateTime, AWSEmail, …) before \
                    anything is sent; the word null means null. On an AWSDateTime field a date alone \
                    (createdAt>2025-01-01) means the start of that day in UTC; relative words such as \
                    yesterday are refused. LOW must not be above HIGH. A belongs-to association stands \
                    for its foreign key: --where post=p1 matches postId; fields of related records \
                    (blog.name) cannot be filtered. Quote expressions that contain < > ! * ? for \
                    the shell. The same grammar serves --if on update and delete.
                    """),
            ]),
        ],
        arguments: [SharedOptions.model],
        options: [
            index, sort, whereOption, filter, limit, pageSize, nextToken, SharedOptions.include, SharedOptions.fields,
            SharedOptions.noFollow, count, SharedOptions.includeDeleted, watch, interval,
        ],
        examples: [
            Example("The first 100 comments on post p1", "gqlc list Comment --limit 100 --where post=p1"),
            Example(
                "The same through the index on postId: a Query, not a Scan",
                "gqlc list Comment --index commentsByPostId --where post=p1 --limit 100"),
            Example(
                "Blog b1's posts whose title starts with 'Swift', last title first",
                "gqlc list Post --index postsByBlogId --where blogId=b1 \\\n    --where 'title^=Swift' --sort desc"),
            Example(
                "Titles of well-rated published posts, one per line",
                "gqlc list Post --where status=PUBLISHED --where 'rating>=4' \\\n    --output ndjson | jq -r .title"),
            Example("How many comments post p1 has", "gqlc list Comment --where post=p1 --count"),
            Example("Titles and ratings as a table", "gqlc list Post --fields title,rating --output table"),
            Example(
                "Posts whose title starts with 'Swift', with their comments",
                "gqlc list Post --where 'title^=Swift' --include comments"),
            Example("Post p1's comments, kept live as they change", "gqlc list Comment --where post=p1 --watch"),
        ])

    static func invocation(from arguments: CommandArguments) throws(UsageError) -> ListInvocation {
        let model = try SharedOptions.modelName(arguments)
        try arguments.expectNoPositionals(after: 1)
        let options = arguments.options
        let conditions = options.values(whereOption)
        let indexName = options.value(index)
        let watching = try watchMode(options)
        // With --watch, --sort names the field that orders the live table.
        let direction = try options.value(sort).flatMap { watching == nil ? $0 : nil }.map { text throws(UsageError) in
            try SortDirection.value(text, for: sort, ignoringCase: true)
        }
        if direction != nil, indexName == nil {
            throw UsageError("option '--sort' needs '--index': only an index query is ordered by a sort key")
        }
        let counting = options.contains(count)
        if counting {
            try options.expectAbsent([limit, nextToken, SharedOptions.include, SharedOptions.fields, SharedOptions.noFollow]) {
                "option '--count' cannot be used with '\($0.flagName)': it prints a number, not records"
            }
        }
        return ListInvocation(
            model: model, index: indexName, sort: direction, conditions: conditions, filter: try options.value(filter).map(parseFilter),
            limit: try options.positiveInteger(limit),
            pageSize: try options.positiveInteger(pageSize) ?? Defaults.pageSize,
            nextToken: try options.nonEmptyValue(nextToken),
            includes: try SharedOptions.includes(arguments), fields: try SharedOptions.fieldPaths(arguments), count: counting,
            followIncludedLists: !options.contains(SharedOptions.noFollow), watch: watching,
            watchDuration: watching == nil ? nil : try options.positiveSeconds(GlobalOptions.timeoutOption),
            watchSort: watching == nil ? nil : options.value(sort).map(ListInvocation.WatchSort.init(parsing:)),
            includeDeleted: options.contains(SharedOptions.includeDeleted),
            pageSizeGiven: options.contains(pageSize))
    }

    /// `--watch [--interval SECONDS]`, with the options a live listing cannot take refused.
    static func watchMode(_ options: ParsedOptions) throws(UsageError) -> ListInvocation.Watch? {
        guard options.contains(watch) else {
            if options.contains(interval) { throw UsageError("option '--interval' needs '--watch'") }
            return nil
        }
        try options.expectAbsent([count, limit, nextToken, index, GlobalOptions.rawResponseOption]) {
            "option '--watch' cannot be used with '\($0.flagName)': a live listing shows every matching record"
        }
        return try options.positiveSeconds(interval).map { .polling(seconds: $0) } ?? .subscriptions
    }

    /// `@FILE`, `@-`, or an inline JSON object.
    static func parseFilter(_ text: String) throws(UsageError) -> FilterArgument {
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            guard !path.isEmpty else { throw UsageError("option '--filter' needs a file name after '@'") }
            return .file(InputSource(argument: path))
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw UsageError(
                "invalid JSON for '--filter': \(error.message) at column \(error.column); use @FILE to read a file")
        }
        guard case .object = value else {
            throw UsageError("invalid value for '--filter': expected a JSON object such as '{\"rating\": {\"ge\": 4}}'")
        }
        return .json(value)
    }
}

extension SortDirection: Choice {
    /// `asc`, `desc` (any case is accepted).
    public var word: String { rawValue.lowercased() }
}
