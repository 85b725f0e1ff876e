/// Where AppSync's real-time WebSocket is, derived from the GraphQL endpoint as Amplify does
/// (`appsyncUrl.ts`, amplify-swift's `AppSyncRealTimeClientFactory`).
///
/// ```swift
/// try RealtimeEndpoint.url(forAPI: "https://abc.appsync-api.eu-west-1.amazonaws.com/graphql")
/// // wss://abc.appsync-realtime-api.eu-west-1.amazonaws.com/graphql
/// try RealtimeEndpoint.url(forAPI: "http://127.0.0.1:4000/graphql")   // ws://127.0.0.1:4000/graphql/realtime
/// ```
public enum RealtimeEndpoint {
    /// The real-time URL for the GraphQL endpoint `api`: an AppSync host `….appsync-api.…` becomes
    /// `….appsync-realtime-api.…` with the same path; any other host gets `/realtime` appended to the path.
    /// `https` maps to `wss`, `http` to `ws`.
    public static func url(forAPI api: String) throws(WebSocketError) -> WebSocketURL {
        let lowered = api.lowercased()
        let scheme: String
        let rest: Substring
        if lowered.hasPrefix("https://") {
            (scheme, rest) = ("wss://", api.dropFirst(8))
        } else if lowered.hasPrefix("http://") {
            (scheme, rest) = ("ws://", api.dropFirst(7))
        } else {
            throw .invalidURL(api, reason: "the GraphQL endpoint must be an http:// or https:// URL to derive the real-time endpoint from")
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var labels = rest[..<authorityEnd].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let afterAuthority = rest[authorityEnd...]
        let queryStart = afterAuthority.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? afterAuthority.endIndex
        var path = String(afterAuthority[..<queryStart])
        let query = afterAuthority[queryStart...].prefix(while: { $0 != "#" })
        // `ID.appsync-api.REGION…`: the label between dots, not the first one.
        if let index = labels.indices.dropFirst().dropLast().first(where: { labels[$0].lowercased() == "appsync-api" }) {
            labels[index] = "appsync-realtime-api"
        } else {
            while path.hasSuffix("/") { path.removeLast() }
            path += "/realtime"
        }
        return try WebSocketURL(scheme + labels.joined(separator: ".") + path + query)
    }
}

extension RealtimeEndpoint {
    /// Where a run's real-time URL came from, in the order they are tried.
    public enum Source: Sendable, Equatable {
        /// Given for this run (on the command line).
        case given
        /// A configured setting (an environment variable or a named environment's key).
        case setting
        /// Derived from the GraphQL endpoint.
        case derived
    }

    /// A real-time URL that could not be used, and where it came from (a setting's origin too); its message names
    /// the real-time endpoint parameter, and how to give one when the derived URL is the problem.
    public struct ResolutionError: Error, Sendable, Equatable, ParameterizedMessage {
        public let source: Source
        public let error: WebSocketError
        /// Where the setting was given, for a setting's URL.
        public var origin: SettingOrigin?

        public func message(naming name: (Parameter) -> String) -> String {
            switch source {
            case .given: "\(name(.realtimeEndpoint)): \(error)"
            case .setting: "\(origin?.describe(naming: name(.realtimeEndpoint)) ?? name(.realtimeEndpoint)): \(error)"
            case .derived: "\(error); pass \(name(.realtimeEndpoint)) URL"
            }
        }
    }

    /// A run's real-time URL: `given`, else `setting`, else the one derived from the GraphQL endpoint `api`; the
    /// first present is used (a bad one is an error, never skipped for the next).
    public static func url(given: String?, setting: Setting<String>?, forAPI api: String) throws(ResolutionError) -> WebSocketURL {
        let (source, text): (Source, String?) = given != nil ? (.given, given) : setting != nil ? (.setting, setting?.value) : (.derived, nil)
        do {
            guard let text else { return try url(forAPI: api) }
            return try WebSocketURL(text)
        } catch {
            throw ResolutionError(source: source, error: error, origin: source == .setting ? setting?.origin : nil)
        }
    }
}
