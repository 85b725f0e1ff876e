import CCurlShim

/// What one transfer collects through libcurl's callbacks: the body, the headers of the final response, and
/// libcurl's error text. Passed to the callbacks as an unmanaged pointer; lives for the length of one send.
final class CurlExchange {
    var body: [UInt8] = []
    /// The most body bytes taken; more ends the transfer from the write callback.
    let limit: Int
    /// How many body bytes had arrived when the limit was passed; nil while within it.
    var overflowedAt: Int?
    var headers: [HTTPHeader] = []
    /// Whether the request may go out a second time in this transfer (see ``prerequest``).
    var mayResend = true
    /// How many times libcurl was about to send the request: more than once when it re-sent it by itself.
    var sendings = 0
    /// Set when a second sending was stopped because the request is not safe to send twice.
    var resendRefused = false
    /// `CURLOPT_ERRORBUFFER`: libcurl writes a detailed message here when a transfer fails.
    let errorBuffer: UnsafeMutablePointer<CChar>

    init(limit: Int = .max) {
        self.limit = limit
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
    }

    /// libcurl's detailed message for the failed transfer, or nil if it left none.
    var errorText: String? {
        let text = String(cString: errorBuffer).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// Takes one header line as libcurl hands it over (with its CR LF). A status line starts a new header block,
    /// so only the final response's headers remain (not those of a `100 Continue` or a proxy's `CONNECT`).
    func receiveHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var line = String(decoding: bytes, as: UTF8.self)
        while line.last == "\n" || line.last == "\r" || line.last == "\r\n" { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        guard !line.isEmpty else { return }
        if line.first == " " || line.first == "\t", !headers.isEmpty {
            // An obsolete folded continuation of the previous header's value.
            headers[headers.count - 1].value += " " + line.trimmingWhitespace()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingWhitespace()
        let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
        let header = HTTPHeader(name: name, value: value)
        headers.append(header)
        reserveBody(announced: header)
    }

    /// Makes room for the body a `Content-Length` announces (at most the limit), so that a big page is received
    /// into one buffer instead of one that is copied each time it doubles. A gzip body's length is that of the
    /// compressed bytes: the buffer then starts at that size and grows from there.
    private func reserveBody(announced header: HTTPHeader) {
        guard body.isEmpty, header.hasName("Content-Length"), let length = Int(header.value), length > 0 else { return }
        body.reserveCapacity(min(length, limit))
    }

    /// The write callback: appends the (already decoded) body bytes.
    static let write: curl_write_callback = { buffer, size, count, userdata in
        let length = size * count
        guard let userdata else { return 0 }
        let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
        guard exchange.body.count + length <= exchange.limit else {
            exchange.overflowedAt = exchange.body.count + length
            return 0  // CURLE_WRITE_ERROR: libcurl stops reading and decoding at once
        }
        return deliver(buffer, length, to: userdata) { $0.body.append(contentsOf: $1) }
    }

    /// The header callback: one header line per call.
    static let header: curl_write_callback = { buffer, size, count, userdata in
        deliver(buffer, size * count, to: userdata) { $0.receiveHeaderLine($1) }
    }

    /// The pre-request callback, run each time the request is about to go out on a connection. libcurl sends
    /// it again by itself when a kept-alive connection closes without an answer; for a request that is not safe
    /// to repeat (a mutation the server may have carried out) that second sending is aborted, so the caller
    /// sees the failure and its own retry rules decide.
    static let prerequest: curl_prereq_callback = { userdata, _, _, _, _ in
        guard let userdata else { return 0 }
        let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
        exchange.sendings += 1
        guard exchange.sendings > 1, !exchange.mayResend else { return 0 }
        exchange.resendRefused = true
        return 1  // CURL_PREREQFUNC_ABORT
    }

    /// Hands `length` bytes at `buffer` to the exchange behind `userdata`; returns what libcurl expects (the
    /// length taken, 0 to abort).
    private static func deliver(
        _ buffer: UnsafeMutablePointer<CChar>?, _ length: Int, to userdata: UnsafeMutableRawPointer?,
        _ take: (CurlExchange, UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int {
        guard let userdata else { return 0 }
        let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
        if let buffer, length > 0 {
            buffer.withMemoryRebound(to: UInt8.self, capacity: length) { take(exchange, UnsafeBufferPointer(start: $0, count: length)) }
        }
        return length
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, CRs and LFs.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
