import Foundation
import Testing
@testable import GQLCore

@Suite struct EndpointTests {
    @Test func headersAreBuiltInOrderWithRawAuthorization() throws {
        let endpoint = try Endpoint(url: "https://h.example/graphql", apiKey: "k", authorization: "eyJ.token", headerLines: ["X-Trace: 1"])
        #expect(endpoint.headers == [
            HTTPHeader(name: "Content-Type", value: "application/json"),
            HTTPHeader(name: "Accept", value: "application/json"),
            HTTPHeader(name: "x-api-key", value: "k"),
            HTTPHeader(name: "Authorization", value: "eyJ.token"),
            HTTPHeader(name: "X-Trace", value: "1"),
        ])
        #expect(endpoint.timeout == 30 && RetryPolicy().maxRetries == 3)
    }

    @Test func extraHeadersReplaceSameNamedOnes() throws {
        let endpoint = try Endpoint(url: "http://127.0.0.1:8080/graphql", apiKey: "old", headerLines: ["X-API-KEY: new", "a: 1", "A: 2"])
        #expect(endpoint.headers.filter { $0.hasName("x-api-key") } == [HTTPHeader(name: "X-API-KEY", value: "new")])
        #expect(endpoint.headers.filter { $0.hasName("a") } == [HTTPHeader(name: "A", value: "2")])
        #expect(endpoint.headers.firstIndex { $0.hasName("x-api-key") } == 2)
    }

    @Test func headerLinesParse() throws {
        #expect(try HTTPHeader.parse("X-Forwarded-For:  1.2.3.4 ") == HTTPHeader(name: "X-Forwarded-For", value: "1.2.3.4"))
        #expect(try HTTPHeader.parse("x-when: 12:30:00") == HTTPHeader(name: "x-when", value: "12:30:00"))
        #expect(try HTTPHeader.parse("X-Empty:") == HTTPHeader(name: "X-Empty", value: ""))
    }

    @Test(arguments: [
        ("no colon here", "expected 'Name: value'"),
        (": value", "the header name before ':' is empty"),
        ("X-Thing : v", "no space is allowed between the header name and ':'"),
        ("X Thing: v", "contains a space"),
        ("X/Thing: v", "contains '/'"),
        ("X-Thing: a\r\nInjected: 1", "line break"),
    ])
    func malformedHeaderLinesAreRejected(line: String, reason: String) {
        let result = Result { () throws(EndpointError) in try HTTPHeader.parse(line) }
        guard case .failure(let error) = result else { Issue.record("accepted '\(line)'"); return }
        #expect(error.description.hasPrefix("malformed header '"))
        #expect(error.description.contains(reason), "\(error.description)")
    }

    @Test(arguments: ["ftp://h/graphql", "localhost:8080", "https://", "/graphql", ""])
    func unusableURLsAreRejected(url: String) {
        let result = Result { () throws(EndpointError) in try Endpoint(url: url) }
        guard case .failure(.invalidURL) = result else { Issue.record("accepted '\(url)'"); return }
    }

    @Test(arguments: [0.0, -1.0, Double.infinity, Double.nan])
    func timeoutMustBePositive(timeout: Double) {
        let result = Result { () throws(EndpointError) in try Endpoint(url: "https://h/graphql", timeout: timeout) }
        guard case .failure(.invalidTimeout) = result else { Issue.record("accepted \(timeout)"); return }
    }
}

@Suite struct CancellationFlagTests {
    @Test func handlersRunOnceAndWaitersWake() {
        let flag = CancellationFlag()
        let counter = Counter()
        let id = flag.onCancel { counter.increment() }
        let removed = flag.onCancel { counter.increment() }
        flag.removeHandler(removed)
        #expect(!flag.isCancelled && !flag.wait(seconds: 0))
        DispatchQueue.global().async { flag.cancel() }
        #expect(flag.wait(seconds: 60))
        flag.cancel()
        #expect(flag.isCancelled && counter.value == 1 && id >= 0)
        // A handler registered late runs at once.
        flag.onCancel { counter.increment() }
        #expect(counter.value == 2)
    }
}

@Suite struct CurlTransportTests {
    @Test func nonHTTPSchemesAreRefusedBeforeSending() throws {
        let url = try #require(EndpointURL(string: "file:///etc/passwd"))
        let result = Result { () throws(TransportError) in
            try CurlTransport.shared.send(HTTPRequest(url: url, headers: [], body: [], timeout: 1), cancellation: nil)
        }
        guard case .failure(.invalidURL(_, let detail)) = result else { Issue.record("got \(result)"); return }
        #expect(detail.contains("http or https"))
    }

    @Test func refusedConnectionIsANetworkError() throws {
        // Port 1 on loopback is closed; proxies are not involved for this check as long as none is configured.
        guard ProcessInfo.processInfo.environment.keys.allSatisfy({ !$0.lowercased().hasSuffix("_proxy") }) else { return }
        let url = try #require(EndpointURL(string: "http://127.0.0.1:1/graphql"))
        let result = Result { () throws(TransportError) in
            try CurlTransport.shared.send(HTTPRequest(url: url, headers: [], body: Array("{}".utf8), timeout: 10), cancellation: nil)
        }
        guard case .failure(.network) = result else { Issue.record("got \(result)"); return }
    }

    @Test func headerLinesLeaveTheFramingToLibcurlAndKeepEmptyValues() {
        let lines = CurlSession.headerLines([
            HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "content-length", value: "3"),
            HTTPHeader(name: "Transfer-Encoding", value: "chunked"), HTTPHeader(name: "X-Empty", value: ""),
        ])
        #expect(lines == ["Content-Type: application/json", "X-Empty;", "Expect:"])
        #expect(CurlSession.headerLines([HTTPHeader(name: "Expect", value: "100-continue")]) == ["Expect: 100-continue"])
    }

    @Test func libcurlFailuresMapToTransportErrors() {
        #expect(CurlSession.error(28, detail: "Operation timed out", timeout: 0.5) == .timeout(seconds: 0.5))
        #expect(CurlSession.error(7, detail: "Failed to connect", timeout: 1) == .network("Failed to connect"))
        let untrusted = "SSL certificate problem: self-signed certificate"
        #expect(CurlSession.error(60, detail: untrusted, timeout: 1) == .tls(untrusted))
        #expect(CurlSession.error(35, detail: "OpenSSL: certificate verify failed", timeout: 1) == .tls("OpenSSL: certificate verify failed"))
        #expect(CurlSession.error(35, detail: "Connection reset by peer", timeout: 1) == .network("Connection reset by peer"))
        // TLS failures are not retried; connection failures are.
        #expect(RetryReason.forTransportError(.tls(untrusted)) == nil)
        #expect(RetryReason.forTransportError(.network("x")) == .network("x"))
    }

    @Test func timeoutsBecomeWholeMillisecondsOfAtLeastOne() {
        #expect(CurlSession.milliseconds(0.3) == 300 && CurlSession.milliseconds(0.0001) == 1)
        #expect(CurlSession.milliseconds(30) == 30_000 && CurlSession.milliseconds(1e15) == 1_000_000_000_000)
    }

    @Test func alreadyCancelledRequestReturnsCancelled() throws {
        let flag = CancellationFlag()
        flag.cancel()
        let url = try #require(EndpointURL(string: "http://127.0.0.1:1/graphql"))
        let result = Result { () throws(TransportError) in
            try CurlTransport.shared.send(HTTPRequest(url: url, headers: [], body: [], timeout: 10), cancellation: flag)
        }
        #expect(result == .failure(.cancelled))
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
