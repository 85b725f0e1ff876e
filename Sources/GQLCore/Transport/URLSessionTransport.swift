import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real transport: one `URLSession` for the whole process, so that pages reuse the keep-alive connection.
///
/// Calls block the caller on a semaphore. That suits a command-line tool with a synchronous main, and lets a
/// ``CancellationFlag`` (set from a signal handler) cancel the in-flight task so Ctrl-C stops a listing at once.
/// No cache, no cookies, no credential storage.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // URLSession is thread-safe; it is only read after init.
    private let session: URLSession

    /// The transport shared by the process.
    public static let shared = URLSessionTransport()

    /// Makes a transport with its own session. Prefer ``shared``; tests may want a fresh one.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration)
    }

    /// Sends `request` once and waits for the whole response, the deadline, or cancellation.
    public func send(_ request: HTTPRequest, cancellation: CancellationFlag?) throws(TransportError) -> HTTPResponse {
        try Self.validate(request.url)
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        // Foundation on Linux truncates timeoutInterval to whole seconds (0.5 s times out at once), so give
        // URLSession at least the next whole second; the deadline below enforces the exact timeout.
        urlRequest.timeoutInterval = max(1, request.timeout.rounded(.up))
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        for header in request.headers {
            urlRequest.setValue(header.value, forHTTPHeaderField: header.name)
        }
        // The body goes last so that its Content-Length wins over any given header of that name.
        #if canImport(FoundationNetworking)
            let rewindableBody = RewindableBody.attach(request.body, to: &urlRequest)
        #else
            urlRequest.httpBody = Data(request.body)
        #endif

        let pending = PendingExchange()
        let task = session.dataTask(with: urlRequest) { data, response, error in
            pending.finish(Self.result(data: data, response: response, error: error, url: request.url, timeout: request.timeout))
        }
        #if canImport(FoundationNetworking)
            // Lets libcurl re-send the body when a kept-alive connection was closed under it (see RewindableBody).
            task.delegate = rewindableBody
        #endif
        let registration = cancellation?.onCancel {
            pending.finish(.failure(.cancelled))
            task.cancel()
        }
        defer { if let registration { cancellation?.removeHandler(registration) } }
        task.resume()

        // URLSession's own timeout is an idle timeout; this deadline bounds the whole exchange.
        let result = pending.wait(timeout: request.timeout)
        if result == nil { task.cancel() }
        return try (result ?? .failure(.timeout(seconds: request.timeout))).get()
    }

    /// Checks that the URL is an absolute http(s) URL with a host.
    static func validate(_ url: URL) throws(TransportError) {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL(url.absoluteString, detail: "the scheme must be http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidURL(url.absoluteString, detail: "the URL has no host")
        }
    }

    private static func result(data: Data?, response: URLResponse?, error: (any Error)?, url: URL, timeout: Double)
        -> Result<HTTPResponse, TransportError>
    {
        if let error {
            return .failure(transportError(error, url: url, timeout: timeout))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.network("the server's answer is not an HTTP response"))
        }
        var headers: [HTTPHeader] = []
        for (name, value) in http.allHeaderFields {
            headers.append(HTTPHeader(name: String(describing: name), value: String(describing: value)))
        }
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }
        return .success(HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](data ?? Data())))
    }

    private static func transportError(_ error: any Error, url: URL, timeout: Double) -> TransportError {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorTimedOut: return .timeout(seconds: timeout)
            case NSURLErrorCancelled: return .cancelled
            case NSURLErrorUnsupportedURL, NSURLErrorBadURL:
                return .invalidURL(url.absoluteString, detail: nsError.localizedDescription)
            default: break
            }
        }
        return .network(nsError.localizedDescription)
    }
}

/// The result of one exchange, set once by whichever comes first: completion, cancellation.
private final class PendingExchange: @unchecked Sendable {
    // `result` is guarded by `lock`; `semaphore` is signalled once, when it is first set.
    private let lock = NSLock()
    private let semaphore = DispatchSemaphore(value: 0)
    private var result: Result<HTTPResponse, TransportError>?

    func finish(_ value: Result<HTTPResponse, TransportError>) {
        lock.lock()
        let first = result == nil
        if first { result = value }
        lock.unlock()
        if first { semaphore.signal() }
    }

    /// The result, or nil if none came within `timeout` seconds.
    func wait(timeout: Double) -> Result<HTTPResponse, TransportError>? {
        let deadline = DispatchTime.now() + .nanoseconds(Int(min(max(timeout, 0), 1e9) * 1e9))
        if semaphore.wait(timeout: deadline) == .timedOut {
            finish(.failure(.timeout(seconds: timeout)))
        }
        lock.lock()
        defer { lock.unlock() }
        return result
    }
}
