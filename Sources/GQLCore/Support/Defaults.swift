/// The defaults of the settings a front end may override, each declared once; help text reads them here.
public enum Defaults {
    /// Items asked for per list page (Amplify Swift's default `limit`).
    public static let pageSize = 1000
    /// Seconds to wait for each HTTP request.
    public static let timeout: Double = 30
    /// Retries of a query after a network error, a timeout, HTTP 429 or 5xx.
    public static let retries = 3
}
