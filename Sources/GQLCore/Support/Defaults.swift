/// The defaults of the settings a front end may override, each declared once; help text reads them here.
public enum Defaults {
    /// Items asked for per list page (Amplify Swift's default `limit`).
    public static let pageSize = 1000
    /// The `limit` of each further page of an included has-many list (`--include`): Amplify's default, 100.
    public static let includedPageSize = 100
    /// Seconds to wait for each HTTP request.
    public static let timeout: Double = 30
    /// Retries of a query after a network error, a timeout, HTTP 429 or 5xx.
    public static let retries = 3
    /// The backoff ceiling of the first retry, in seconds; it doubles with each retry.
    public static let retryBaseDelay: Double = 0.2
    /// The largest backoff ceiling of a retry, in seconds.
    public static let retryMaximumDelay: Double = 10
    /// Requests a bulk create, update or delete (and restore, copy) keeps in flight at once.
    public static let concurrency = 8
    /// Records a bulk delete remembers for the orphan check after it; past this many the check is skipped, since it
    /// costs a query per record and association.
    public static let orphanCheckLimit = 100

    /// Attempts to reconnect a real-time subscription after its connection is lost.
    public static let realtimeReconnectAttempts = 10
    /// The first wait before reconnecting a subscription, in seconds; it doubles with each attempt.
    public static let realtimeFirstBackoff: Double = 0.5
    /// The longest wait between reconnection attempts, in seconds.
    public static let realtimeMaximumBackoff: Double = 5
    /// Seconds to wait for an STS, SSO or credential-endpoint request.
    public static let credentialServiceTimeout: Double = timeout
    /// Seconds to wait for the EC2 instance metadata service (botocore's default, which `AWS_METADATA_SERVICE_TIMEOUT`
    /// overrides): short, so a laptop does not wait.
    public static let instanceMetadataTimeout: Double = 1
    /// Attempts at the EC2 instance metadata service (botocore's default; `AWS_METADATA_SERVICE_NUM_ATTEMPTS`).
    public static let instanceMetadataAttempts = 1

    /// Throttled attempts after which a bulk record fails for throttling alone (when retries are on at all): a throttled
    /// request was not carried out, and the job's shared pacing slows down instead. At a steady 20% of throttles the
    /// chance that one record meets this many in a row is about 1 in 10^11.
    public static let throttledAttemptsPerRecord = 16

    /// Records a `list_records` call returns when it gives no `limit`.
    public static let mcpListLimit = 50
    /// The largest `limit` a `list_records` call may ask for.
    public static let mcpListLimitCap = 1000
    /// A tool result's records, in bytes of compact JSON, before the list is cut at a record boundary (about 25,000
    /// tokens, what assistants accept from one tool call by default).
    public static let mcpResultBytes = 80_000
    /// The most bytes a response body may hold once decoded, in MiB. AppSync's own quotas keep a response far
    /// smaller (a resolver's result is limited to about 1 MB, a Lambda's to 5 MB), so only a hostile or broken
    /// server reaches it: a gzip bomb or an endless body is cut here instead of exhausting memory.
    public static let maxResponseMiB = 256
    /// Retry waits at least this long (seconds) are announced on stderr even without `--verbose`.
    public static let retryNoticeSeconds: Double = 3
    /// The longest `Retry-After` honoured, in seconds; a longer one is cut to this.
    public static let maximumRetryAfter: Double = 60
    /// WebSocket protocol errors from a real-time server, over all of a subscription's reconnections, after which
    /// `subscribe` gives up.
    public static let maxRealtimeProtocolErrors = 3
    /// List pages in a row with no items after which a listing stops (resumable): AppSync filters after `limit`, so
    /// a selective filter on a big table yields some empty pages, but not this many.
    public static let maxEmptyPagesInARow = 10_000
    /// The largest `--timeout`, in seconds (a year); a larger one is a usage error rather than a silent change.
    public static let maximumTimeout: Double = 365 * 86_400
    /// The longest keep-alive interval gqlc accepts from a real-time server (`connectionTimeoutMs`, AppSync sends
    /// 300000): a larger one is lowered to this, so a hostile number cannot make a dead connection look alive for ever.
    public static let maximumConnectionTimeoutMs = 3_600_000
}
