/// The defaults of the settings a front end may override, each declared once; help text reads them here.
public enum Defaults {
    /// Items asked for per list page (Amplify Swift's default `limit`).
    public static let pageSize = 1000
    /// Seconds to wait for each HTTP request.
    public static let timeout: Double = 30
    /// Retries of a query after a network error, a timeout, HTTP 429 or 5xx.
    public static let retries = 3

    /// Records a `list_records` call returns when it gives no `limit`.
    public static let mcpListLimit = 50
    /// The largest `limit` a `list_records` call may ask for.
    public static let mcpListLimitCap = 1000
    /// A tool result's records, in bytes of compact JSON, before the list is cut at a record boundary (about 25,000
    /// tokens, what assistants accept from one tool call by default).
    public static let mcpResultBytes = 80_000
}
