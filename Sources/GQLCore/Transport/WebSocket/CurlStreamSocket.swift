import CCurlShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw byte stream over a libcurl connect-only connection (plain TCP or TLS), read and written with
/// `curl_easy_recv`/`curl_easy_send` and waited on with `poll` on the socket and a wake-up pipe.
///
/// One thread uses it; a ``CancellationFlag`` set from another thread (a signal handler's) writes to the pipe,
/// which ends any wait at once.
final class CurlStreamSocket {
    /// How one read ended.
    enum ReadResult {
        case bytes(Int)
        /// The peer closed the connection.
        case endOfStream
        case timedOut
    }

    private let curl: LibCurl
    private let handle: OpaquePointer
    private let socket: Int32
    private let wake: WakePipe
    private let cancellation: CancellationFlag?
    private let registration: Int?
    private var released = false
    /// Where the connection goes, for messages.
    let peer: String

    private init(curl: LibCurl, handle: OpaquePointer, socket: Int32, wake: WakePipe, cancellation: CancellationFlag?,
                 registration: Int?, peer: String) {
        self.curl = curl
        self.handle = handle
        self.socket = socket
        self.wake = wake
        self.cancellation = cancellation
        self.registration = registration
        self.peer = peer
    }

    /// Connects to `url` (TCP, then TLS for wss) within `timeout` seconds. `caFile` replaces the system's CA
    /// certificates, as the HTTP transport does.
    static func connect(url: WebSocketURL, timeout: Double, caFile: String?, cancellation: CancellationFlag?)
        throws(WebSocketError) -> CurlStreamSocket
    {
        let curl: LibCurl
        do {
            curl = try LibCurl.load()
        } catch {
            throw .connectionFailed(error.description)
        }
        let wake = try WakePipe()
        guard let handle = curl.easyInit() else {
            wake.close()
            throw .connectionFailed("libcurl could not make a handle")
        }
        let peer = url.hostHeader
        let registration = cancellation?.onCancel { wake.wake() }
        func fail(_ error: WebSocketError) -> WebSocketError {
            if let registration { cancellation?.removeHandler(registration) }
            curl.easyCleanup(handle)
            wake.close()
            return error
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = errorBuffer.withUnsafeMutableBytes { buffer -> CURLcode in
            curl.setopt(handle, CURLOPT_ERRORBUFFER, pointer: buffer.baseAddress)
            curl.setopt(handle, CURLOPT_URL, url.httpURL)
            curl.setopt(handle, CURLOPT_CONNECT_ONLY, 1)
            // Over TLS libcurl would offer HTTP/2 by ALPN, and a server that picks it cannot take our upgrade.
            curl.setopt(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
            curl.setopt(handle, CURLOPT_NOSIGNAL, 1)
            curl.setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int((timeout * 1000).rounded(.up))))
            curl.setopt(handle, CURLOPT_TCP_KEEPALIVE, 1)
            // Through an HTTP proxy, tunnel with CONNECT: the raw stream needs it.
            curl.setopt(handle, CURLOPT_HTTPPROXYTUNNEL, 1)
            if let caFile { curl.setopt(handle, CURLOPT_CAINFO, caFile) }
            // The connect runs inside curl_easy_perform; the progress callback is how Ctrl-C ends it.
            curl.setopt(handle, CURLOPT_NOPROGRESS, 0)
            curl.setopt(handle, CURLOPT_XFERINFODATA, pointer: Unmanaged.passUnretained(wake).toOpaque())
            curl.setopt(handle, CURLOPT_XFERINFOFUNCTION, progress: { data, _, _, _, _ in
                guard let data else { return 0 }
                return Unmanaged<WakePipe>.fromOpaque(data).takeUnretainedValue().isWoken ? 1 : 0
            })
            let code = curl.easyPerform(handle)
            curl.setopt(handle, CURLOPT_ERRORBUFFER, pointer: nil)
            curl.setopt(handle, CURLOPT_NOPROGRESS, 1)
            curl.setopt(handle, CURLOPT_XFERINFOFUNCTION, progress: nil)
            return code
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw fail(connectError(code, detail: detail, curl: curl, peer: peer, timeout: timeout, cancelled: wake.isWoken))
        }
        guard let socket = curl.getinfoSocket(handle, CURLINFO_ACTIVESOCKET) else {
            throw fail(.connectionFailed("libcurl gave no socket for the connection to \(peer)"))
        }
        return CurlStreamSocket(curl: curl, handle: handle, socket: socket, wake: wake, cancellation: cancellation,
                                registration: registration, peer: peer)
    }

    deinit { release() }

    /// Closes the connection (cleanup closes the socket and sends a TLS close_notify). Safe to call twice;
    /// nothing may be sent or received afterwards.
    func release() {
        guard !released else { return }
        released = true
        if let registration { cancellation?.removeHandler(registration) }
        curl.easyCleanup(handle)
        wake.close()
    }

    /// Sends all of `bytes`, waiting for the socket to drain until `deadline`. `interruptible: false` ignores
    /// cancellation (for the closing handshake that follows it).
    func send(_ bytes: [UInt8], deadline: Deadline, interruptible: Bool = true) throws(WebSocketError) {
        var offset = 0
        while offset < bytes.count {
            if interruptible && wake.isWoken { throw .cancelled }
            var sent = 0
            let code = bytes.withUnsafeBytes { buffer in
                curl.easySend(handle, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, &sent)
            }
            switch code {
            case CURLE_OK:
                offset += sent
            case CURLE_AGAIN:
                if try !wait(for: Int16(POLLOUT), until: deadline, interruptible: interruptible) {
                    throw .timeout(seconds: deadline.secondsSinceStart, during: "sending to \(peer)")
                }
            default:
                throw .connectionFailed("sending to \(peer) failed: \(curl.strerror(code))")
            }
        }
    }

    /// Reads what is available into `buffer`, waiting until `deadline` (nil: no limit) for at least one byte.
    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline?, interruptible: Bool = true)
        throws(WebSocketError) -> ReadResult
    {
        while true {
            if interruptible && wake.isWoken { throw .cancelled }
            // Read before polling: with TLS, bytes libcurl has already decrypted are invisible to poll.
            var received = 0
            let code = curl.easyRecv(handle, buffer.baseAddress, buffer.count, &received)
            switch code {
            case CURLE_OK:
                return received == 0 ? .endOfStream : .bytes(received)
            case CURLE_AGAIN:
                if try !wait(for: Int16(POLLIN), until: deadline, interruptible: interruptible) { return .timedOut }
            default:
                throw .connectionFailed("reading from \(peer) failed: \(curl.strerror(code))")
            }
        }
    }

    /// Reads what is available into the start of `array` (see the pointer form).
    func receive(into array: inout [UInt8], deadline: Deadline?, interruptible: Bool = true) throws(WebSocketError) -> ReadResult {
        let result = array.withUnsafeMutableBytes { buffer in
            Result { () throws(WebSocketError) in try receive(into: buffer, deadline: deadline, interruptible: interruptible) }
        }
        return try result.get()
    }

    /// Waits until the socket is ready for `events`; false at the deadline. Throws ``WebSocketError/cancelled``
    /// when the wake-up pipe is written (unless not `interruptible`).
    private func wait(for events: Int16, until deadline: Deadline?, interruptible: Bool) throws(WebSocketError) -> Bool {
        while true {
            var timeoutMs: Int32 = -1
            if let deadline {
                let remaining = deadline.millisecondsFromNow
                if remaining <= 0 { return false }
                timeoutMs = Int32(clamping: remaining)
            }
            var fds = [pollfd(fd: socket, events: events, revents: 0), pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, interruptible ? 2 : 1, timeoutMs)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .connectionFailed("poll failed: \(String(cString: strerror(errno)))")
            }
            if interruptible && fds[1].revents != 0 { throw .cancelled }
            // Errors and hang-ups count as ready: the next send or receive reports them.
            if fds[0].revents != 0 { return true }
            if ready == 0, deadline != nil { return false }
        }
    }

    private static func connectError(_ code: CURLcode, detail: String, curl: LibCurl, peer: String, timeout: Double,
                                      cancelled: Bool) -> WebSocketError {
        if code == CURLE_ABORTED_BY_CALLBACK && cancelled { return .cancelled }
        if code == CURLE_OPERATION_TIMEDOUT { return .timeout(seconds: timeout, during: "connecting to \(peer)") }
        let reason = detail.isEmpty ? curl.strerror(code) : detail
        return .connectionFailed("cannot connect to \(peer): \(reason)")
    }
}

/// A self-pipe: writing a byte ends every `poll` that includes the read end. Closing is guarded, so a
/// cancellation handler running late never writes to a descriptor number that has been reused.
final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    /// (woken, closed)
    private let state = Mutex((woken: false, closed: false))

    init() throws(WebSocketError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .connectionFailed("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    var isWoken: Bool { state.withLock { $0.woken } }

    func wake() {
        state.withLock { state in
            guard !state.woken, !state.closed else { return }
            state.woken = true
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            closeDescriptor(readEnd)
            closeDescriptor(writeEnd)
        }
    }
}

private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
    #endif
}
