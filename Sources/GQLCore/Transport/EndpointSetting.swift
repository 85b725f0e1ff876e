/// Why an endpoint setting is not an absolute http(s) URL, with the URL most likely meant when only the scheme is
/// missing (`localhost:20011/graphql`).
public struct EndpointSettingProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the URL parser said, when the text is not a URL at all (a missing scheme or `//` is left unsaid).
    public let reason: URLParseError?
    /// The text with a scheme added, when that makes it a URL; user info masked.
    public let guess: String?

    /// `expected an http:// or https:// URL; did you mean 'http://localhost:20011/graphql'?`, after the parser's reason.
    public var description: String {
        let reason = reason.map { "\($0); " } ?? ""
        let hint = guess.map { "; did you mean '\($0)'?" } ?? ""
        return "\(reason)expected an http:// or https:// URL\(hint)"
    }
}

extension EndpointURL {
    /// An endpoint given as a setting: an absolute http(s) URL with a host.
    public static func setting(_ text: String) throws(EndpointSettingProblem) -> EndpointURL {
        let url: EndpointURL
        do {
            url = try EndpointURL(parsing: text)
        } catch {
            let schemeMissing = error == .noScheme || error == .noAuthority
            throw EndpointSettingProblem(
                reason: schemeMissing ? nil : error, guess: schemeMissing ? withScheme(text).map(maskingUserInfo) : nil)
        }
        guard url.httpProblem == nil else { throw EndpointSettingProblem(reason: nil, guess: nil) }
        return url
    }

    /// `localhost:20011/graphql` with the scheme it most likely lacks: http on the loopback (local servers), else
    /// https; nil when that is not a URL either.
    static func withScheme(_ text: String) -> String? {
        guard !text.contains("://") else { return nil }
        let host = text.prefix { $0 != ":" && $0 != "/" }.lowercased()
        let local = host == "localhost" || host.hasPrefix("127.") || host == "0.0.0.0" || text.hasPrefix("[::1]")
        let guess = (local ? "http://" : "https://") + text
        guard let url = try? EndpointURL(parsing: guess), url.httpProblem == nil else { return nil }
        return guess
    }
}
