import Foundation
import Testing
@testable import GQLCore

/// The endpoint URL parser, with Foundation's `URLComponents` as the reference for the parts of valid URLs.
@Suite struct EndpointURLTests {
    @Test(arguments: [
        "https://abc.appsync-api.eu-west-1.amazonaws.com/graphql",
        "http://127.0.0.1:20002/graphql",
        "HTTPS://Example.COM:8443/a/b%20c?x=1&y=%2F#frag",
        "http://localhost",
        "http://localhost:80/",
        "https://h/p?",
        "http://[::1]:8080/graphql",
        "http://[2001:db8::1]/",
        "http://[::ffff:192.0.2.1]:9/x",
        "http://example.com/a;b=c/d~e?q=a+b",
    ])
    func partsMatchFoundation(text: String) throws {
        let url = try EndpointURL(parsing: text)
        let reference = try #require(URLComponents(string: text))
        #expect(url.absoluteString == text)
        #expect(url.scheme == reference.scheme?.lowercased())
        #expect(url.host == reference.host?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        #expect(url.port == reference.port)
        #expect(url.path == reference.percentEncodedPath)
        #expect(url.query == reference.percentEncodedQuery)
    }

    @Test func hostHeaderDropsDefaultPortsAndBracketsIPv6() throws {
        #expect(try EndpointURL(parsing: "https://h.example:443/x").hostForHeader == "h.example")
        #expect(try EndpointURL(parsing: "http://h.example:80").hostForHeader == "h.example")
        #expect(try EndpointURL(parsing: "http://h.example:443").hostForHeader == "h.example:443")
        #expect(try EndpointURL(parsing: "http://[::1]:8080/").hostForHeader == "[::1]:8080")
        #expect(try EndpointURL(parsing: "https://[::1]/").hostForHeader == "[::1]")
    }

    @Test(arguments: [
        ("example.com/graphql", "it has no scheme such as https://"),
        ("://x", "it has no scheme such as https://"),
        ("", "it has no scheme such as https://"),
        ("https:example.com", "expected '//' and a host after the scheme"),
        ("https://user:secret@example.com/", "credentials in the URL (user@ or user:password@) are not supported; send them in a header"),
        ("https://example.com:0/", "the port '0' is not a number from 1 to 65535"),
        ("https://example.com:65536/", "the port '65536' is not a number from 1 to 65535"),
        ("https://example.com:8o/", "the port '8o' is not a number from 1 to 65535"),
        ("https://:443/", "the URL has no host"),
        ("http://[::1/", "'[::1' is not an IPv6 address in brackets, such as [::1]"),
        ("http://[example.com]/", "'example.com' is not an IPv6 address in brackets, such as [::1]"),
        ("http://[::1]x/", "'[::1]x' is not an IPv6 address in brackets, such as [::1]"),
        ("https://exa_mple.com/", nil),
        ("https://exa mple.com/", "it contains a space; write it as %20"),
        ("https://example.com/a\tb", "it contains '\\t'; percent-encode it"),
        ("https://example.com/é", "it contains 'é'; percent-encode it"),
        ("https://example.com/a\u{85}b", "it contains '\\u{0085}'; percent-encode it"),
        ("https://example.com/a%zz", "a '%' is not followed by two hex digits"),
        ("https://example.com/a%2", "a '%' is not followed by two hex digits"),
        ("https://exa<mple.com/", "the host contains '<'"),
        ("https://example.com/{id}", "it contains '{'; percent-encode it"),
    ] as [(String, String?)])
    func invalidURLsSayWhy(text: String, message: String?) {
        let result = Result { () throws(URLParseError) in try EndpointURL(parsing: text) }
        switch (result, message) {
        case (.success, nil): break
        case (.failure(let error), let message?): #expect(error.description == message)
        default: Issue.record("\(text): \(result)")
        }
    }

    @Test func fileURLsParseWithAnEmptyHostAndAreRefusedForSending() throws {
        let url = try EndpointURL(parsing: "file:///etc/passwd")
        #expect(url.host.isEmpty && url.path == "/etc/passwd")
        #expect(throws: TransportError.self) { try HTTPRequest.validate(url) }
    }

    @Test func passwordsAreMaskedInMessages() {
        #expect(EndpointURL.maskingUserInfo("https://u:p@h/x@y") == "https://***@h/x@y")
        #expect(EndpointURL.maskingUserInfo("https://a@b:c@h") == "https://***@h")
        #expect(EndpointURL.maskingUserInfo("https://h/p?u=a@b") == "https://h/p?u=a@b")
        #expect(EndpointURL.maskingUserInfo("no-scheme@host") == "no-scheme@host")
    }

    @Test func percentDecoding() {
        #expect(EndpointURL.percentDecoded("a%2Fb%20c") == "a/b c")
        #expect(EndpointURL.percentDecoded("%C3%A9") == "é")
        #expect(EndpointURL.percentDecoded("100%") == "100%")
        #expect(EndpointURL.percentDecoded("%FF") == "%FF")  // not UTF-8: kept as written
    }

    @Test func endpointErrorsQuoteTheURLAndTheReason() {
        let result = Result { () throws(EndpointError) in try Endpoint(url: "https://u:p@example.com/graphql") }
        guard case .failure(let error) = result else { Issue.record("accepted"); return }
        #expect(error.description.hasPrefix(
            "invalid endpoint URL 'https://***@example.com/graphql': credentials in the URL (user@ or user:password@) are not supported"))
    }
}
