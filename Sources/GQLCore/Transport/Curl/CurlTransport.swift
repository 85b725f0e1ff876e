import CCurlShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real transport: the system libcurl (loaded on first use), one easy handle for every request, so pages
/// reuse the kept-alive connection.
///
/// A send blocks the caller. The transfer runs on libcurl's multi interface, waiting in `curl_multi_poll` on
/// curl's sockets and on a pipe that a ``CancellationFlag`` handler writes to, so Ctrl-C ends a request at once
/// and waiting costs no CPU. Each request sets:
/// - `CURLOPT_TIMEOUT_MS`: the exact deadline of the whole exchange;
/// - `Accept-Encoding: gzip`, decoded by libcurl;
/// - no redirects followed (a 3xx is returned as it is), no cookies, no signals;
/// - TLS verified against the system's CAs, or `caFile` when the request gives one;
/// - proxies as libcurl reads them from `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy`.
///
/// The body is copied into libcurl, so when a kept-alive connection turns out to be closed by the server just
/// as a request goes out (no answer at all), libcurl re-sends the whole request on a new connection. It does so
/// only for requests that are safe to repeat (``HTTPRequest/mayResend``): for the others (mutations) the server
/// may have carried out the first sending and lost its answer, so the transfer fails with a network error instead
/// and the caller's own retry rules decide (they know a retry happened; libcurl's re-sending they cannot see).
/// Concurrent sends on one transport take turns.
public final class CurlTransport: HTTPTransport, Sendable {
    private let state = Mutex<CurlSession?>(nil)

    /// The transport shared by the process.
    public static let shared = CurlTransport()

    /// Makes a transport with its own handle and connections. Prefer ``shared``; tests may want a fresh one.
    public init() {}

    /// Sends `request` once and waits for the whole response, the deadline, or cancellation.
    public func send(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse {
        try HTTPRequest.validate(request.url)
        if cancellation?.isCancelled == true { throw .cancelled }
        return try state.withLock { (session: inout CurlSession?) throws(TransportError) -> HTTPResponse in
            if session == nil { session = try CurlSession() }
            guard let session else { throw .network("libcurl could not be set up") }
            return try session.perform(request, cancellation: cancellation)
        }
    }
}

/// One easy handle inside one multi handle (whose pool keeps the connections), and the wake-up pipe.
final class CurlSession {
    private let curl: LibCurl
    private let multi: OpaquePointer
    private let easy: OpaquePointer
    /// Written to (one byte) by a cancellation handler to end `curl_multi_poll`; both ends non-blocking.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() throws(TransportError) {
        do {
            curl = try LibCurl.load()
        } catch {
            throw .unavailable(error.description)
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .network("cannot create a pipe: \(String(cString: strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        guard let multi = curl.multiInit(), let easy = curl.easyInit() else {
            for fd in fds { close(fd) }
            throw .network("libcurl could not create a handle")
        }
        (self.multi, self.easy, wakeRead, wakeWrite) = (multi, easy, fds[0], fds[1])
    }

    deinit {
        curl.easyCleanup(easy)
        _ = curl.multiCleanup(multi)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Sends `request` on the easy handle and waits for the response, the deadline, or cancellation.
    func perform(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse {
        let exchange = CurlExchange(limit: max(0, request.maxResponseBytes))
        let headerList = curl.makeList(Self.headerLines(request.headers))
        defer { if let headerList { curl.slistFreeAll(headerList) } }
        configure(request, exchange: exchange, headers: headerList)

        drainWakePipe()
        let wakeWrite = self.wakeWrite
        let registration = cancellation?.onCancel {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        defer { if let registration { cancellation?.removeHandler(registration) } }

        let code = try run(cancellation: cancellation)
        if let received = exchange.overflowedAt { throw .responseTooLarge(limit: request.maxResponseBytes, received: received) }
        if code == CURLE_ABORTED_BY_CALLBACK && exchange.resendRefused { throw .network(Self.lostAnswer) }
        guard code == CURLE_OK else {
            throw Self.error(code, detail: exchange.errorText ?? curl.strerror(code), timeout: request.timeout)
        }
        let status = curl.getinfoLong(easy, CURLINFO_RESPONSE_CODE) ?? 0
        return HTTPResponse(status: status, headers: exchange.headers, body: exchange.body)
    }

    /// Sets every option of the easy handle for `request`, from a clean state (the connections stay).
    private func configure(_ request: HTTPRequest, exchange: CurlExchange, headers: UnsafeMutablePointer<curl_slist>?) {
        curl.easyReset(easy)
        curl.setopt(easy, CURLOPT_URL, request.url.absoluteString)
        curl.setopt(easy, CURLOPT_NOSIGNAL, 1)
        curl.setopt(easy, CURLOPT_NOPROGRESS, 1)
        curl.setopt(easy, CURLOPT_FOLLOWLOCATION, 0)
        curl.setopt(easy, CURLOPT_ACCEPT_ENCODING, "gzip")
        curl.setopt(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        if let caFile = request.caFile { curl.setopt(easy, CURLOPT_CAINFO, caFile) }
        curl.setopt(easy, CURLOPT_HTTPHEADER, pointer: headers.map { UnsafeRawPointer($0) })
        curl.setopt(easy, CURLOPT_ERRORBUFFER, pointer: exchange.errorBuffer)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        curl.setopt(easy, CURLOPT_WRITEFUNCTION, write: CurlExchange.write)
        curl.setopt(easy, CURLOPT_WRITEDATA, pointer: context)
        curl.setopt(easy, CURLOPT_HEADERFUNCTION, write: CurlExchange.header)
        curl.setopt(easy, CURLOPT_HEADERDATA, pointer: context)
        if !request.mayResend {
            exchange.mayResend = false
            curl.setopt(easy, CURLOPT_PREREQDATA, pointer: context)
            if curl.setopt(easy, CURLOPT_PREREQFUNCTION, prerequest: CurlExchange.prerequest) != CURLE_OK {
                // Before libcurl 7.80 there is no way to see the re-sending: never reuse a connection for it.
                curl.setopt(easy, CURLOPT_FRESH_CONNECT, 1)
            }
        }

        let method = request.method.uppercased()
        if method == "GET" && request.body.isEmpty {
            curl.setopt(easy, CURLOPT_HTTPGET, 1)
            return
        }
        // The body is copied, so libcurl can send it again on a new connection; the size goes first.
        curl.setopt(easy, CURLOPT_POST, 1)
        curl.setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(request.body.count))
        if request.body.isEmpty {
            curl.setopt(easy, CURLOPT_COPYPOSTFIELDS, "")
        } else {
            request.body.withUnsafeBytes { _ = curl.setopt(easy, CURLOPT_COPYPOSTFIELDS, pointer: $0.baseAddress) }
        }
        if method != "POST" { curl.setopt(easy, CURLOPT_CUSTOMREQUEST, method) }
    }

    /// Drives the transfer until it ends; returns its result code.
    private func run(cancellation: CancellationFlag?) throws(TransportError) -> CURLcode {
        let added = curl.multiAddHandle(multi, easy)
        guard added == CURLM_OK else { throw .network(curl.multiStrerror(added)) }
        defer { _ = curl.multiRemoveHandle(multi, easy) }
        var wake = curl_waitfd(fd: wakeRead, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        while true {
            var running: Int32 = 0
            let performed = curl.multiPerform(multi, &running)
            guard performed == CURLM_OK else { throw .network(curl.multiStrerror(performed)) }
            if running == 0 { break }
            if cancellation?.isCancelled == true { throw .cancelled }
            var ready: Int32 = 0
            // libcurl shortens the wait to its own next timer (the deadline, a connect step).
            let polled = curl.multiPoll(multi, &wake, 1, 1000, &ready)
            guard polled == CURLM_OK else { throw .network(curl.multiStrerror(polled)) }
        }
        var queued: Int32 = 0
        while let message = curl.multiInfoRead(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE, message.pointee.easy_handle == easy {
                return message.pointee.data.result
            }
        }
        return CURLE_OK
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    /// The header lines for libcurl: the length and transfer encoding are libcurl's to set, `Expect:` turns off
    /// `100-continue` waits, and an empty value is written `Name;` (libcurl reads `Name:` as "remove").
    static func headerLines(_ headers: [HTTPHeader]) -> [String] {
        var lines: [String] = []
        for header in headers where !header.hasName("Content-Length") && !header.hasName("Transfer-Encoding") {
            lines.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
        }
        if !headers.contains(where: { $0.hasName("Expect") }) { lines.append("Expect:") }
        return lines
    }

    /// Why a request that is not safe to repeat failed when libcurl was about to send it again.
    static let lostAnswer = "the server closed the connection without answering; the request may have been carried out"

    /// A timeout in whole milliseconds for libcurl, at least 1 (0 would mean none).
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max((seconds * 1000).rounded(.up), 1), 1e12))
    }

    /// The transport error for a failed transfer; `detail` is libcurl's message.
    static func error(_ code: CURLcode, detail: String, timeout: Double) -> TransportError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout(seconds: timeout)
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .network(detail)
        case CURLE_OUT_OF_MEMORY:
            return .badResponse("libcurl ran out of memory reading it (\(detail)), as response headers over its 100 KB limit make it do")
        case CURLE_BAD_CONTENT_ENCODING, CURLE_TOO_LARGE:
            // A body that is not the gzip it says, headers past libcurl's limit (out of memory before libcurl 8.6,
            // CURLE_TOO_LARGE since): the same request would get the same answer.
            return .badResponse(detail)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return .tls(detail)
        case CURLE_SSL_CONNECT_ERROR where detail.lowercased().contains("certificate"):
            return .tls(detail)
        default:
            return .network(detail)
        }
    }
}
