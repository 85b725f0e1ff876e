#if canImport(Glibc)
import Foundation
import Testing
@testable import GQLCore

/// The real transport against a loopback server: pages share one connection, and a kept-alive connection that
/// the server closes without answering costs neither the timeout nor the body. Serialized: each test blocks a
/// thread on the transport, and parallel blocked tests can stall the thread pool for a second.
@Suite(.serialized) struct TransportKeepAliveTests {
    /// libcurl would send loopback traffic to a configured proxy; these tests need the direct route.
    static let noProxy = ProcessInfo.processInfo.environment.keys.allSatisfy { !$0.lowercased().hasSuffix("_proxy") }

    private func request(_ server: TransportLoopbackServer, body: String, headers: [HTTPHeader] = []) throws -> HTTPRequest {
        HTTPRequest(url: try server.url, headers: [HTTPHeader(name: "Content-Type", value: "application/json")] + headers,
                    body: Array(body.utf8), timeout: 10)
    }

    @Test(.enabled(if: noProxy)) func requestsReuseOneKeptAliveConnection() throws {
        let server = try TransportLoopbackServer()
        defer { server.stop() }
        let transport = CurlTransport()
        for page in 1...3 {
            let response = try transport.send(request(server, body: #"{"page":\#(page)}"#), cancellation: nil)
            #expect(response.status == 200 && response.body == Array(#"{"page":\#(page)}"#.utf8))
        }
        #expect(server.requests.map(\.connection) == [1, 1, 1])
    }

    @Test(.enabled(if: noProxy)) func aDroppedKeptAliveConnectionResendsTheWholeBodyAtOnce() throws {
        // Request 2 arrives on the kept-alive connection and is closed without an answer; libcurl sends it again on
        // a new connection. Before the body could be rewound, the resent request had no body and waited for the
        // 10 s timeout.
        let server = try TransportLoopbackServer { $0 == 2 ? .drop : .echo }
        defer { server.stop() }
        let transport = CurlTransport()
        let first = try transport.send(request(server, body: #"{"page":1}"#), cancellation: nil)
        let second = try transport.send(request(server, body: #"{"page":2}"#), cancellation: nil)
        #expect(first.body == Array(#"{"page":1}"#.utf8))
        #expect(second.status == 200 && second.body == Array(#"{"page":2}"#.utf8))
        let requests = server.requests
        #expect(requests.map(\.connection) == [1, 1, 2])
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"page":1}"#, #"{"page":2}"#, #"{"page":2}"#])
    }

    @Test(.enabled(if: noProxy)) func theBodyGoesWithItsContentLengthAndNotChunked() throws {
        let server = try TransportLoopbackServer { $0 == 2 ? .drop : .echo }
        defer { server.stop() }
        let transport = CurlTransport()
        // A Content-Length given as a header must not override the real one.
        let wrongLength = [HTTPHeader(name: "Content-Length", value: "3")]
        _ = try transport.send(request(server, body: "{}"), cancellation: nil)
        _ = try transport.send(request(server, body: #"{"query":"{ a }"}"#, headers: wrongLength), cancellation: nil)
        let requests = server.requests
        #expect(requests.count == 3)
        for received in requests {
            #expect(received.headers["transfer-encoding"] == nil)
            #expect(received.headers["content-length"] == String(received.body.count))
        }
        #expect(requests.last?.body == Array(#"{"query":"{ a }"}"#.utf8))
    }

    @Test(.enabled(if: noProxy)) func anEmptyBodyIsSentWithLengthZeroAndResentToo() throws {
        // libcurl re-sends a POST without a body too; it must arrive again, still with length zero.
        let server = try TransportLoopbackServer { $0 == 2 ? .drop : .echo }
        defer { server.stop() }
        let transport = CurlTransport()
        let wrongLength = [HTTPHeader(name: "Content-Length", value: "7")]
        for _ in 1...2 {
            let response = try transport.send(request(server, body: "", headers: wrongLength), cancellation: nil)
            #expect(response.status == 200 && response.body.isEmpty)
        }
        #expect(server.requests.map { $0.headers["content-length"] } == ["0", "0", "0"])
        #expect(server.requests.map(\.connection) == [1, 1, 2])
    }

    @Test(.enabled(if: noProxy), arguments: [301, 302, 307, 308])
    func redirectsAreNotFollowed(status: Int) throws {
        // A GraphQL endpoint that redirects is misconfigured; following it would re-send credentials elsewhere.
        let server = try TransportLoopbackServer { $0 == 1 ? .redirect(status: status, location: "/moved") : .echo }
        defer { server.stop() }
        let response = try CurlTransport().send(request(server, body: #"{"query":"{ a }"}"#), cancellation: nil)
        #expect(response.status == status)
        #expect(response.headers.value(for: "location") == "/moved")
        #expect(server.requests.map(\.line) == ["POST /graphql"])
    }

    @Test(.enabled(if: noProxy)) func everyRequestAsksForGzipAndSendsNoExpect() throws {
        let server = try TransportLoopbackServer()
        defer { server.stop() }
        let body = String(repeating: "x", count: 5000)
        let response = try CurlTransport().send(request(server, body: body), cancellation: nil)
        #expect(response.body == Array(body.utf8))
        let received = try #require(server.requests.first)
        #expect(received.headers["accept-encoding"] == "gzip")
        #expect(received.headers["expect"] == nil)
    }

    @Test(.enabled(if: noProxy)) func cancellingEndsAnUnansweredRequestAndTheNextOneIsServed() throws {
        let flag = CancellationFlag()
        // The server cancels when it has read request 1, as Ctrl-C would while the request waits for its answer.
        let server = try TransportLoopbackServer { number in
            guard number == 1 else { return .echo }
            flag.cancel()
            return .hang
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let pending = try request(server, body: "{}")
        let first = Result { () throws(TransportError) in try transport.send(pending, cancellation: flag) }
        #expect(first == .failure(.cancelled))
        // The handle and its wake-up pipe are ready for the next request.
        let second = try transport.send(request(server, body: #"{"page":2}"#), cancellation: CancellationFlag())
        #expect(second.status == 200 && second.body == Array(#"{"page":2}"#.utf8))
    }

    @Test(.enabled(if: noProxy)) func theDeadlineEndsAnUnansweredRequest() throws {
        let server = try TransportLoopbackServer { $0 == 1 ? .hang : .echo }
        defer { server.stop() }
        var slow = try request(server, body: "{}")
        slow.timeout = 0.3
        let transport = CurlTransport()
        let result = Result { () throws(TransportError) in try transport.send(slow, cancellation: nil) }
        #expect(result == .failure(.timeout(seconds: 0.3)))
        #expect(try transport.send(request(server, body: "{}"), cancellation: nil).status == 200)
    }
}
#endif
