#if canImport(Glibc)
import Foundation
import Glibc
import Testing
@testable import GQLCore

/// A minimal HTTP/1.1 server on 127.0.0.1 for transport tests, which records each request with the connection it
/// came on and answers by echoing the body (status 200), redirects, or closes the connection without an answer.
///
/// Connections are kept alive, like a real server's. A request with `Transfer-Encoding` gets 411 and a close:
/// gqlc always sends a `Content-Length`.
final class TransportLoopbackServer: @unchecked Sendable {
    /// What to do with a request once it has been read whole.
    enum Action: Sendable {
        case echo
        /// Close the connection without a byte of answer, as a server does that drops an idle connection.
        case drop
        /// Answer `status` (301, 302, 307…) with `Location: location` and no body.
        case redirect(status: Int, location: String)
        /// Never answer; keep the connection open until the client closes it.
        case hang
    }

    /// One request as the server read it.
    struct Received: Sendable, Equatable {
        /// 1 for the first connection accepted, 2 for the next…
        var connection: Int
        /// The method and path from the request line, e.g. `POST /graphql`.
        var line: String
        /// Header names lowercased.
        var headers: [String: String]
        var body: [UInt8]
    }

    let port: UInt16
    private let listener: Int32
    private let decide: @Sendable (_ requestNumber: Int) -> Action
    // Guarded by `lock`.
    private let lock = NSLock()
    private var received: [Received] = []
    private var open: [Int32] = []
    private var accepted = 0

    /// Starts listening; `decide` gets each request's 1-based number across all connections.
    init(decide: @escaping @Sendable (_ requestNumber: Int) -> Action = { _ in .echo }) throws {
        self.decide = decide
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0, "socket() failed")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, raw, &length) == 0
            }
        }
        if !bound { close(listener) }
        try #require(bound, "cannot listen on 127.0.0.1")
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var url: EndpointURL {
        get throws { try #require(EndpointURL(string: "http://127.0.0.1:\(port)/graphql")) }
    }

    /// Every request read so far, in order.
    var requests: [Received] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Stops listening and closes every open connection.
    func stop() {
        lock.lock()
        let sockets = open
        open = []
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            lock.lock()
            accepted += 1
            let number = accepted
            open.append(connection)
            lock.unlock()
            Thread.detachNewThread { [self] in serve(connection, number: number) }
        }
    }

    private func serve(_ socket: Int32, number connection: Int) {
        defer {
            lock.lock()
            open.removeAll { $0 == socket }
            lock.unlock()
            close(socket)
        }
        var buffer: [UInt8] = []
        while let (line, headers, headerEnd) = readHead(socket, into: &buffer) {
            if headers["transfer-encoding"] != nil {
                respond(socket, status: "411 Length Required", body: [])
                return
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            guard fill(socket, &buffer, upTo: headerEnd + length) else { return }
            let body = Array(buffer[headerEnd..<(headerEnd + length)])
            buffer.removeFirst(headerEnd + length)
            lock.lock()
            received.append(Received(connection: connection, line: line, headers: headers, body: body))
            let requestNumber = received.count
            lock.unlock()
            switch decide(requestNumber) {
            case .echo: respond(socket, status: "200 OK", body: body)
            case .redirect(let status, let location):
                respond(socket, status: "\(status) Redirect", body: [], extraHeader: "Location: \(location)\r\n")
            case .drop:
                shutdown(socket, Int32(SHUT_RDWR))
                return
            case .hang:
                continue
            }
        }
    }

    /// Reads up to the blank line; returns the method and path, the headers, and where the body starts, or nil at
    /// end of stream.
    private func readHead(_ socket: Int32, into buffer: inout [UInt8]) -> (line: String, headers: [String: String], end: Int)? {
        let blankLine: [UInt8] = Array("\r\n\r\n".utf8)
        var end = find(blankLine, in: buffer)
        while end == nil {
            guard fill(socket, &buffer, upTo: buffer.count + 1) else { return nil }
            end = find(blankLine, in: buffer)
        }
        guard let end else { return nil }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let requestLine = (lines.first ?? "").split(separator: " ").prefix(2).joined(separator: " ")
        return (requestLine, headers, end + blankLine.count)
    }

    /// Receives until `buffer` holds at least `count` bytes; false at end of stream or on an error.
    private func fill(_ socket: Int32, _ buffer: inout [UInt8], upTo count: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count {
            let read = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { return false }
            buffer.append(contentsOf: chunk[..<read])
        }
        return true
    }

    private func respond(_ socket: Int32, status: String, body: [UInt8], extraHeader: String = "") {
        let head = "HTTP/1.1 \(status)\r\n\(extraHeader)Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            sent += written
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
#endif
